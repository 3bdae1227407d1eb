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
