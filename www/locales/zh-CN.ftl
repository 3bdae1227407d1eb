# 页面的中文用语。每个键都与英文目录（en.ftl）一一对应，变量相同（有测试检查）。
# HF 和 llama.cpp 的参数名（temperature、top_p……）是人们搜索用的标识符，保持英文。

language-name = 中文（简体）
language-picker = 语言
language-picker-title = 页面语言（?lang=），在本站记住

## 页头

page-title = 模型是怎样选出下一个词元的？
open-full-page = 打开完整页面 ↗
projector-mode = 投影模式
projector-mode-leave = 退出投影模式
projector-mode-title = 大字号，一次只显示一样东西，适合在教室投影（?present=1）
replay-notice = 正在回放记录文件 { $name } 中的运行：表格和图表都是记录下来的，不需要模型。点“运行”重新生成。

## 提示词一栏

run = 运行
run-again = 再次运行
stop = 停止
reroll = 换种子重跑
reroll-title = 给每个采样通道换新的种子，然后运行
add-lane = + 添加一个通道
add-lane-title = 再加一个通道，复制最后一个
remove-lane = − 删除通道 { $lane }
prompt = 提示词
prompt-label = 提示词：
lesson = 课程
shared-randomness = {" "}共享随机数：各采样通道在每一步抽取相同的随机数，因此它们只因参数不同而不同
shared-randomness-title = 每个采样通道在每一步都使用相同的随机数，所以通道之间的差别只来自参数
shared-seed = （共享种子 { $seed }）
seeds-set-aside = 各通道自己的种子不同，而共享随机数会忽略它们：只有种子不同的通道将写出相同的文本。
negative-prompt = 反向提示词：
negative-prompt-title = HF 的 negative_prompt：设置了 guidance_scale 的通道会远离模型在这段文字之后会说的内容（留空：只在提示词最后一个词元之后）
negative-prompt-placeholder = {" "}留空：引导从提示词的最后一个词元开始
score-text = 给一段文本打分：
score-text-title = 教师强制：每个通道都沿着这段文本走，并显示它的参数对每个词元给出的概率
score-text-placeholder = {" "}提示词的一段续写，例如：每天练习
score-button = 在每个通道中打分
score-button-title = 每个通道显示它的配置给这段文本中每个词元的概率
prompt-cropped = 提示词比模型的上下文还长：前 { $tokens } 个词元被略去了。

## 课程播放器

lesson-steps = 课程步骤
lesson-previous = ← 上一步
lesson-next = 下一步 →
lesson-step-of = 第 { $step } 步，共 { $steps } 步
lesson-step-title = ：{ $title }
the-bundled-model = 内置模型
lesson-recorded = 这是本步骤录好的运行，在 { $model } 上生成：没有为它下载任何东西。点“运行”可以现场再看一遍。
lesson-recording-fetching = 正在获取本步骤录好的运行……
lesson-recording-error = 无法显示本步骤录好的运行：{ $why }
lesson-show-recording = 显示录好的运行
lesson-show-recording-title = 显示本步骤在 { $model } 上录好的运行，不运行模型
lesson-file = 打开课程文件……
lesson-file-title = 课程文件（.json）；也可以把文件拖到这里
lesson-from-file = 来自文件 { $name }
lesson-from-site = 来自 { $path }
heading-colon = ：
present-keys = → ← 词元 · ↓ ↑ 或 Page Down / Up 课程步骤 · 空格 揭晓答案 · Esc 回到各通道

## 分享、嵌入、导出

lesson-panel = 分享、嵌入、导出
share = 复制分享链接
share-title = 一个链接：恢复这个提示词、这四个通道和模型，并运行它们
embed = 复制嵌入代码
embed-title = 用于课程页面的 <iframe>：只有四个通道，没有编辑器
export = 导出：
export-json = JSON
export-json-title = 整次运行连同每一步的概率表（与命令行 --json 的格式相同）；可用“回放”重新载入
export-csv = CSV
export-csv-title = 每一步的候选表，每个候选一行
export-markdown = Markdown
export-markdown-title = 四段文本并排
export-plots = 图表图片
export-plots-title = 所有图表合成一张 SVG 图片
replay-file = 回放录好的运行……
replay-file-title = 查看导出为 JSON 的运行，不需要模型
print-handout = 把课程打印成讲义
print-handout-title = 把打开的课程打印到纸上或存为 PDF：每一步的讲解、提示词、通道、录好的文本和第一张概率表，以及问题和答案
print-handout-preparing = 正在准备讲义（还有 { $fetching } 个要获取）……
share-link = 分享链接
embed-code = 嵌入代码

## 通道

lane-heading = 通道 { $lane }
lane-edit = 编辑
lane-edit-done = 完成
lane-veiled = 回答上面的问题之后才显示。
lane-not-run = 尚未运行
lane-running = 运行中……
lane-stopped = 已停止：{ $reason }
lane-tokens = { $tokens } 个词元
lane-speed = {" "}· 每秒 { $speed } 个词元
lane-score = log p = { $logp }，共 { $tokens } 个词元 · 困惑度 { $perplexity }
lane-score-impossible = 这个通道的参数让 { $tokens } 个词元中的 { $impossible } 个变得不可能（已划掉）：在这里这段文本的概率为 0。
lane-sample = 样本 { $sample } · 在其参数下 log p { $logp } · { $text }
starts-from = {" "}从模型的 generation_config.json 出发
starts-from-title = HF 的 generate() 会把模型的 generation_config.json 垫在每次调用之下：调用没有设置的参数先取自这个文件，再取自库的默认值。取消勾选，这个通道就只用库的默认值运行，好像仓库里没有这个文件。
starts-from-nothing = 没有这个通道未设置的参数
starts-from-runs-as = {" "}→ 以 { $mode } 方式运行
starts-from-runs-as-library-other = {" "}→ 以 { $mode } 方式运行（若从库的默认值出发：{ $other }）
starts-from-runs-as-model-other = {" "}→ 以 { $mode } 方式运行（若从模型的文件出发：{ $other }）
watermark-own-key = 本通道的密钥
watermark-lane-key = 通道 { $lane } 的密钥
watermark-yes = 有水印
watermark-no = 没有水印
watermark-title = HF 的 WatermarkDetector：绿色词元是密钥的绿名单（由前一个词元播种）所包含的词元；z 表示它们高出预期比例多少
watermark-check = 水印检测（{ $key }）：{ $scored } 个词元中 { $green } 个为绿色（{ $share }%，预期 { $expected }%）· z = { $z } → { $verdict }
embed-iframe-title = 下一个词元实验室：语言模型如何选出下一个词元

## A token in a lane's text (its hover and tap text)

token-step = 第 { $step } 步 · p = { $p }
token-impossible = 第 { $step } 步 · 在本通道的参数下不可能出现（模型给出的 p = { $p }）
token-diverge = {" "}· 各通道从这里分岔
token-watermark-green = {" "}· 水印：绿
token-watermark-red = {" "}· 水印：红
token-split = {" "}· 是“{ $char }”的一部分，字节 { $bytes }，分布在第 { $tokens } 个词元
token-split-cut = {" "}· 字节 { $bytes }：文本在它们组成一个字之前就结束了
