# 页面的中文用语。每个键都与英文目录（en.ftl）一一对应，变量相同（有测试检查）。
# HF 和 llama.cpp 的参数名（temperature、top_p……）是人们搜索用的标识符，保持英文。

# Short: the picker sits beside the model line in the page head, and a
# wider menu would wrap that line on a 1440 px screen.
language-name = 简体中文
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
list-separator = 、
lane-list = { $count ->
    [1] 通道 { $last }
   *[other] 通道 { $init } 和 { $last }
}

## The logit lens (compare view)

lens-toggle = 逐层透视
lens-toggle-title = 在这一步，每一层会预测什么：把最后的归一化和输出头用在每一层的输出上。对已完成的运行打开它，会用相同的种子再运行一次，记录每一层。
lens-heading = 逐层透视：每一层会说什么
lens-explain = 每一行在某一层之后停下模型，再用它最后的归一化和输出头。最后一行是模型自己的输出，也就是这一步的原始概率。★ 标出从哪一层起，被选中的词元一直是最可能的。
lens-caption = 通道 { $lane }：每一层之后最可能的词元，以及被选中的词元在那里的概率和排名。
lens-col-layer = 层
lens-col-top = 最可能的词元
lens-col-chosen = “{ $token }”
lens-layer-out = { $layer } 输出
lens-chosen-rank = 第 { $rank }
lens-settles-title = 从这一层起，被选中的词元是最可能的。
lens-settled-first = “{ $token }” 从第一层起就是最可能的。
lens-settled = “{ $token }” 在第 { $layer } 层（共 { $layers } 层）之后成为最可能的，并一直保持。
lens-not-top = “{ $token }” 在这里不是模型最可能的词元：它是抽样得到的，或是某个参数选中的。
lens-many-rows = 这个通道每一步要权衡好几条序列（束、对比候选、多个样本）；透视只跟随只有一条序列的通道。
lens-waiting = 正在记录每一层：运行正在进行。
lens-not-recorded = 这次运行记录时没有打开透视；再运行一次即可看到每一层。

## One step in every lane (the compare view) and the tables

compare-label = 各通道的第 { $step } 步
compare-heading = 各通道的第 { $step } 步（共 { $steps } 步）
compare-keys = ← → 在所有通道中移动步骤 · Home / End 跳到首尾 · Esc 关闭
previous-step = 上一步
next-step = 下一步
close = 关闭
compare-other-text = { $count ->
   *[other] { $lanes } 在这一步之前的文本不同：每一列都是它自己通道的上下文。
}
compare-beams = { $count ->
   *[other] { $lanes } 是束搜索：这一步是几条束中最好的延续，而不是一条路径。
}
how-forced = 给定（为一段文本打分）
how-draw = 带种子的抽样，u = { $u }
how-beam = 最好的束延续
how-contrastive = 最高的对比分数
how-greedy = 贪心：概率最高
step-picked = { $how } · 排名 { $rank } · p { $p0 } → { $p1 }
step-spread = 保留 { $kept } 个 · 熵 { $e0 } → { $e1 } · 核 50/90/95%：{ $n50 }/{ $n90 }/{ $n95 }
step-summary-title = 选择方式：{ $how }。模型排名第 { $rank }；参数作用前 p 为 { $p0 }，作用后为 { $p1 }；保留 { $kept } 个词元；熵 { $e0 } → { $e1 } 奈特；top-p 核在 50% 时含 { $n50 } 个词元，90% 时 { $n90 } 个，95% 时 { $n95 } 个。
not-in-table = 不在本通道的表中
removed = 已移除
chosen-sr = {" "}（已选）
branch = 分支
branch-title = 所有通道从这里以“{ $token }”继续
branch-label = 以“{ $token }”分支
branch-column-title = 分支：所有通道从这里以这个词元继续
at-step = {" "}· 第 { $step } 步
chose = {" "}· 选了“{ $token }”
chose-part-of = {" "}（“{ $char }”的一部分：{ $bytes }）
chose-dangling = {" "}（字节 { $bytes }：文本在它们组成一个字之前就结束了）
sorted = 已排序
sort = 排序
sorted-title = 各行按本通道的顺序排列
sort-title = 按本通道的概率给各行排序
sort-sr = {" "}按通道 { $lane } 排列各行
compare-caption = 通道 { $lane }：每个词元在参数作用前后的概率。
what-if = 如果……？在这一步试试参数
stopped-after = 生成 { $tokens } 个词元后停止：{ $reason }
running-so-far = 运行中……已生成 { $tokens } 个词元
col-token = 词元
col-logit = logit
col-p-model-after = 模型 p → 参数作用后
col-p = p
col-group = 组
col-from-beam = 来自束
col-sum-log-p = log p 之和
col-diversity-penalty = 多样性惩罚
col-constraints-met = 满足的约束
col-fate = 结果
col-max-cosine = 最大余弦
col-score = 分数
met-of = { $met } / { $all }
beam-fate-pad = 该组已完成：填充
beam-fate-pushed = 保留：推进了一个约束
beam-fate-finished = 已完成
beam-fate-kept = 保留
beam-fate-dropped = 丢弃
beams-title = 这一步的束延续
beams-title-grouped = 这一步的束延续，按组排列（后面的组要为前面的组刚选过的词元付出代价）
beams-title-constrained = 这一步的束延续：在强制词上每个进度层级中最好的先继续
contrastive-title = 对比搜索候选：(1 − α)·p − α·最大余弦
dola-only = 它唯一的候选层
dola-layer-js = 第 { $layer } 层：{ $js }
dola-furthest = 按 Jensen–Shannon 散度离最终层最远的一层（{ $each }）
dola-step = DoLa：与第 { $layer } 层对比，因为它是{ $why }。参数看到的是 log p(最终层) − log p(第 { $layer } 层)，只在最终层最高概率 10% 以内的 { $plausible } 个词元上计算；其余的被丢弃（漏斗中的 dola_layers 阶段）。logit 列是最终层自己的。
funnel-label = 过滤漏斗
funnel-kept = {" "}保留 { $kept } 个
funnel-removed = {" "}· 移除 { $mass }

## What each knob does (the knob names stay as the libraries spell them)

hf-help-max_new_tokens = 最多生成多少个词元
hf-help-max_length = 提示词加新词元的总数上限
hf-help-min_new_tokens = 新词元达到这个数量之前不会出现 eos
hf-help-min_length = 提示词加新词元达到这个长度之前不会出现 eos
hf-help-do_sample = 随机抽取下一个词元，而不是取最好的那个
hf-help-temperature = 每个 logit 都除以它：小于 1 更尖锐，大于 1 更平坦
hf-help-top_k = 只保留概率最高的 k 个词元
hf-help-top_p = 保留概率总和达到 p 的最少的高概率词元
hf-help-min_p = 保留概率至少为最高概率 × min_p 的词元
hf-help-typical_p = 保留最接近熵的词元，直到它们的概率总和达到 p
hf-help-epsilon_cutoff = 去掉概率低于这个值的词元
hf-help-eta_cutoff = 去掉低于一个随熵缩放的阈值的词元
hf-help-repetition_penalty = 已出现过的词元：正的 logit 除以它（负的乘以它）
hf-help-no_repeat_ngram_size = 禁止任何这个长度的 n 元组出现两次
hf-help-num_beams = 同时保留这么多个假设，返回总分最好的
hf-help-length_penalty = 束的分数除以长度的这个次方：大于 0 偏向长文本
hf-help-early_stopping = 束搜索何时停止：true、false（启发式）或 "never"
hf-help-num_return_sequences = 返回多少条已完成的束
hf-help-penalty_alpha = 对比搜索：退化惩罚的权重
hf-help-eos_token_id = 结束文本的词元 id
hf-help-stop_strings = 一旦出现就结束生成的文本
hf-help-seed = 采样通道抽取所用的随机数流
hf-help-frequency_penalty = 减去这个值 × 词元到目前为止出现的次数（OpenAI 风格）
hf-help-presence_penalty = 对每个出现过的词元减去一次这个值（OpenAI 风格）
hf-help-top_h = 保留高概率词元，直到它们的熵超过整体熵的 top_h 倍
hf-help-bad_words_ids = 永远不生成的词元序列：[[ids], …]
hf-help-sequence_bias = 给一个词元序列的最后一个词元加偏置：[[[ids], bias], …]
hf-help-suppress_tokens = 永远不生成的词元 id
hf-help-begin_suppress_tokens = 不能作为第一个生成词元的词元 id
hf-help-forced_bos_token_id = 单词元提示词（空提示词）之后的第一个词元
hf-help-forced_eos_token_id = 在 max_length 允许的最后一个位置强制出现的词元 id
hf-help-exponential_decay_length_penalty = [start, factor]：生成 start 个新词元后，eos 每个词元增长 factor 倍
hf-help-renormalize_logits = 每个参数之后做 log-softmax，使束的分数仍是对数概率
hf-help-remove_invalid_values = NaN 变成 0，±inf 变成最大的有限数
hf-help-watermarking_config = {"{"}"bias": 2{"}"}：带种子的绿色词元获得一个可用密钥检测的偏置
hf-help-guidance_scale = 把 log p 推离一次没有提示词（或用反向提示词）的计算
hf-help-num_beam_groups = 把束分成几组，依次搜索
hf-help-diversity_penalty = 前面的组刚选过某个词元几次，本组该词元的 log p 就减去几倍这个值
hf-help-dola_layers = "low"、"high" 或 [层]：分数为 log p(最终层) − log p(较早的一层)
hf-help-force_words_ids = [[ids], [[ids], [ids]]]：束必须包含的短语（或几个可选短语之一）

llama-help-temperature = 除 logit——在 llama.cpp 默认链中排最后，在过滤器之后；0 或更小只保留最好的词元（贪心）
llama-help-top_k = 保留概率最高的 k 个词元（0 = 关闭）；这里默认 40
llama-help-top_p = 保留概率总和达到 p 的最小高概率词元集合，至少 min_keep 个；这里默认 0.95
llama-help-min_p = 保留概率至少是最好词元 p 倍的词元；这里默认 0.05
llama-help-typical_p = 局部典型采样：惊讶度接近熵的词元（1 = 关闭）
llama-help-top_n_sigma = 保留 logit 与最好者相差不超过 n 个标准差的词元（负数 = 关闭）
llama-help-xtc_probability = 排除首选：以多大概率去掉除最不可能者之外的所有高概率词元（0 = 关闭）
llama-help-xtc_threshold = XTC：多高的概率算高概率词元（高于 0.5 则关闭 XTC）
llama-help-dynatemp_range = 动态温度：温度随候选词元的熵在 ± 这个范围内变化（0 = 关闭）
llama-help-dynatemp_exponent = 熵如何映射到动态温度
llama-help-min_keep = top_p、min_p、typical 和 XTC 至少保留这么多个词元
llama-help-samplers = 采样链的顺序，用 llama.cpp 的名字（penalties、dry、top_n_sigma、top_k、typ_p、top_p、min_p、xtc、temperature、adaptive_p）
llama-help-seed = 采样链抽取所用的种子（dist、XTC、mirostat；-1 = 随机）
llama-help-repeat_penalty = 最近 repeat_last_n 个词元中每个词元的 logit 除以它（若为负则乘以它）（1 = 关闭）
llama-help-repeat_last_n = 惩罚看多少个最近的词元，包括提示词中的（64；0 = 关闭；-1 = 整个上下文）
llama-help-presence_penalty = 对最近 repeat_last_n 个词元中出现过的每个词元减去一次
llama-help-frequency_penalty = 在最近 repeat_last_n 个词元中每出现一次减去一次
llama-help-dry_multiplier = DRY：惩罚会延长重复序列的词元，multiplier · base^(长度 − 允许长度)（0 = 关闭）
llama-help-dry_base = DRY：惩罚随重复长度增长得多快
llama-help-dry_allowed_length = DRY：不超过这个长度的重复不受惩罚
llama-help-dry_penalty_last_n = DRY：向前看多远（64；0 = 关闭；-1 = 整个上下文）
llama-help-dry_sequence_breakers = DRY：终止重复回看的字符串（换行、冒号、引号、星号）
llama-help-mirostat = 1 或 2：mirostat 取代温度之后的采样链，把每次选择的惊讶度引向 mirostat_tau（0 = 关闭）
llama-help-mirostat_tau = mirostat：目标惊讶度，单位为比特
llama-help-mirostat_eta = mirostat：向目标修正的速度
llama-help-adaptive_target = adaptive-p（列在 samplers 中）：选择概率接近这个值的词元（负数 = 关闭）
llama-help-adaptive_decay = adaptive-p：它对最近选择的记忆有多长
llama-help-n_predict = 生成多少个词元（-1 = 直到上下文填满）
llama-help-stop = 文本中出现这些字符串之一时停止
llama-help-ignore_eos = 禁止文本结束词元，使通道一直运行到 n_predict
llama-help-logit_bias = [[token, bias], ...] 或 {"{"}"token": bias{"}"}；token 可以是 id 或文本，false 表示禁止它
llama-help-semantics = 通道采用哪一套参数：这里是 "llama.cpp"

## The knobs' headings and hover text

hf-group-length = 长度
hf-group-strategy = 策略
hf-group-logits_manipulation = logits 调整
hf-group-special_tokens = 特殊词元
hf-group-watermark = 水印
hf-group-guidance = 引导
llama-group-sampler_chain = 采样链
llama-group-penalties = 惩罚
llama-group-mirostat = mirostat、adaptive-p
llama-group-length = 长度、停止、词元
knob-title = { $knob }（{ $group }）：{ $help }
knob-takes = {" "}（取值 { $range }）
llama-knob-title = { $knob }（llama-server）：{ $help }
llama-knob-takes = {" "}（取值 { $min } 到 { $max }）
range-any = 任意数

## A lane's knobs (the editor)

ecosystem = 生态
ecosystem-title = 这个通道采用谁的参数：HF transformers 的 generate() 还是 llama.cpp 的采样链（llama-server 的名字和默认值）。同样的名字在两边含义不同。
mode = 模式
mode-greedy = 贪心
mode-sample = 采样
mode-beam = 束搜索
mode-beam-sample = 束采样
mode-group-beam = 多样束搜索
mode-constrained-beam = 约束束搜索
mode-contrastive = 对比搜索
token-rules = 词元规则、水印、引导：禁用词、偏置、被抑制和被强制的词元
chain = 采样链：{" "}
llama-fields = llama-server /completion 字段
ecosystem-tutorial = 教程（seed 004）的循环
tutorial-loop = 最后 block_size 个 id → temperature → top_k → top_p（保留越过 p 的第一个词元）→ softmax → 抽样；do_sample 为 false 时取 argmax。不会在文本结束符处停下。
tutorial-fields = generate() 参数
tutorial-help-max_new_tokens = 循环要添加的词元数。它不会提前停下：seed 004 的循环没有结束符停止。
tutorial-help-temperature = 在过滤之前，logits 除以它。必须为正，即使 do_sample 为 false。
tutorial-help-top_k = 保留不小于第 k 大的 logits（并列的都保留）。留空、0 或更小：不过滤。
tutorial-help-top_p = 保留最可能的词元，直到概率之和超过 p，并保留越过 p 的第一个。留空：不过滤；否则须在 (0, 1] 内。
tutorial-help-do_sample = true：从过滤后的 softmax 中抽样。false：对原始 logits 取 argmax。
tutorial-help-block_size = 窗口：每一步模型只看到最后 block_size 个 id。留空：模型的上下文长度。
tutorial-help-seed = 这里抽样的种子（本工具的抽样，不是 torch 的 multinomial：同一种子在这里可重复，在 Python 里不行）。

## The what-if sandbox

sandbox-title = 如果……？一个分布，你的参数
sandbox-intro = 输入一个分布的 logits（先用课文里的五个），或者在一次运行的某一步的表格下点“如果……？”打开那一步，然后调整参数：表格、漏斗和熵会随你的输入实时变化，由各通道自己的代码按 HF 的顺序计算。空框表示关闭（top_k 也是，尽管 HF 不加说明时会用 50 来采样）。
sandbox-caption = 每个词元在参数作用前后的概率，按作用后概率从高到低排列。
col-removed-by = 被谁移除
lanes-pick-sr = {" "}（通道选中的）
sandbox-lanes-pick = 通道选中的
sandbox-likeliest = 参数作用后最可能的
sandbox-pick = {" "}· { $what }：“{ $token }”，概率 { $p }
sandbox-kept = 保留了 { $total } 个词元中的 { $kept } 个
sandbox-entropy = {" "}· 熵 { $e0 } → { $e1 } 奈特
sandbox-computing = 计算中……
sandbox-answered = 用时 { $ms } 毫秒
sandbox-lane-step = 通道 { $lane } · 第 { $step } 步
sandbox-from-beam = ：束搜索在这一步的一行——模型在提示词和最好延续所扩展的那条束的 { $tokens } 个词元之后（共 { $context } 个词元的上下文）对下一个词元的完整分布，从通道自己的参数开始；最好的延续标有 ◀。和 HF 的束搜索一样，参数作用在对数概率上（重复惩罚会把每一个都乘上），而且每个截断器至少比通道的文本结束 id 多留一个词元，和采样束一样，这样一条束可以越过文本结束继续。{" "}
sandbox-from-lane = ：模型在提示词和通道前 { $tokens } 个词元之后（共 { $context } 个词元的上下文）对下一个词元的完整分布，从通道自己的参数开始；通道选中的标有 ◀。{" "}
sandbox-guided = 这个通道用了 guidance_scale，它需要沙盒不运行的第二次无条件计算：这里的表是模型在引导之前自己的那一行，所以和通道的不同。
sandbox-llama = 这个通道运行的是 llama.cpp 的采样链。沙盒从它的 temperature、top_k、top_p、min_p 和 typical_p 开始，但按 HF 的方式应用：先温度，且没有 llama.cpp 的惩罚，所以它的表可能和通道的不同。
sandbox-dola = 这个通道用了 DoLa，它把最终层和沙盒不读取的较早一层对比：这里的表是对比之前最终层自己的一行，所以和通道的不同。
sandbox-back = 回到输入的 logits
sandbox-logits = logits（词元 a、b、c……）
off = 关闭
sandbox-order = 顺序：HF 按一个固定的顺序应用这些参数——{ $order }——而且无法更改；llama.cpp 的采样链可以重新排序（它的 `samplers` 列表）。
sandbox-use = 把这些参数用在

## The model line and panel

model-bundled = 内置 KJV-GPT-2（离线）
model-hub-repo = { $repo }（模型仓库）
model-folder = { $path }（与本页一起托管）
model-local-files = 本地文件（{ $names }）
memory-beyond-wasm = 这些权重有 { $size }，运行{ $cache }约需 { $need } WebAssembly 内存：超过了浏览器标签页中 WebAssembly 能寻址的 4 GB，所以任何设备都无法在这里运行它们。请选一个更小的模型，或量化过的模型。
memory-warning = 这些权重有 { $size }，运行{ $cache }约需 { $need } 内存（含下载的文件）；本设备报告总共只有 { $device }，所以标签页可能内存不足。内置的离线模型只需约 30 MB。
loaded-of = {" "}{ $loaded } / { $total }
loading-model = 正在加载 { $name }：{ $file }{" "}
file-downloaded = { $file } 已下载
model-heads = { $heads } 个头
model-heads-kv = { $heads } 个头（{ $kv } 个键/值头）
model-facts = {" "}· { $params } M 参数 · { $layers } 层 · { $heads } · 宽 { $width } · { $positions } 个位置 · { $dtype } · { $size } · 加载用时 { $seconds } 秒 ·{" "}
threads = { $threads } 个线程
architecture-hint = 模型在 HF transformers 中的类名，取自它的 config.json：GPT2LMHeadModel（GPT-2、distilgpt2）、LlamaForCausalLM（SmolLM2）或 Qwen2ForCausalLM（Qwen2.5）。
help-about = { $about } 的作用
threads-hint = 只有页面是跨源隔离的（带 Cross-Origin-Opener-Policy 和 Cross-Origin-Embedder-Policy 响应头，scripts/serve.mjs 就是这样提供的），引擎才会用多个线程。两种情况结果完全相同，只是速度不同。
one-thread-not-isolated = 单线程工作线程：此页面没有跨源隔离
one-thread-no-shared-array-buffer = 单线程工作线程：此浏览器不向页面提供多线程所需的 SharedArrayBuffer
one-thread-no-shared-wasm-memory = 单线程工作线程：此浏览器不能在线程之间共享 WebAssembly 内存
one-thread-threaded-failed = 单线程工作线程：多线程工作线程在这里没有启动
model-defaults-before = 这个模型的 generation_config.json 设置了{" "}
model-defaults-after = 。HF 的 generate() 除非调用另有说明，都从这些值开始，这里的通道也一样；每个通道都会说明它从中取用了什么，也可以改为从库的默认值开始。
confirm-ask = 这个链接要求从模型仓库获取模型 `{ $repo }`。还没有下载任何东西。{" "}
confirm-asking = 正在询问它有多大……{" "}
confirm-ask-folder = 这个链接要求获取与本页一起托管的模型文件夹 `{ $repo }`。还没有下载任何东西。{" "}
confirm-cached = 它的权重（{ $size }）已在本浏览器的缓存中：无需下载。{" "}
confirm-size = 它的权重需要下载 { $size }。{" "}
confirm-unknown = 模型仓库没有说明它有多大；下载开始后会显示大小（GPT-2 大小的模型为 250–550 MB）。{" "}
confirm-download = 下载 { $repo }
confirm-ask-typed = 来自模型仓库的 `{ $repo }`：还没有下载任何内容。{" "}
gguf-choose = 这个仓库存放的是 llama.cpp 文件，每种量化一个。每个权重的位数越少，下载越小、运行越快，但概率离全精度越远。请选择一个：
gguf-no-tag = （文件名中没有类型）
gguf-cached = 已在此浏览器中
gguf-not-here = 本页无法运行的 llama.cpp 类型
gguf-split = 未列出 { $count } 个分卷文件：本页只读取单个 .gguf 文件。
gguf-choose-first = 选择一个文件即可看到下载大小。{" "}
confirm-keep = 继续使用当前模型
keep-previous-model = 继续使用 { $model }
confirm-bundled = 使用内置的离线模型
live-asking = 正在询问模型有多大……
live-cached = 模型已在本浏览器中：无需下载
live-size = 需下载 { $size }
live-unknown = 下载开始后会显示大小
live-offer = 正在显示课程录制的运行结果：没有下载任何东西。{" "}
run-live = 实时运行
worker-starting = 正在启动模型工作线程……
model-failed = 无法加载模型：{ $message }
model-failed-file = 无法加载模型（{ $file }）：{ $message }
change-model = 更换模型
bundled-model-button = 内置离线模型
hub-repo-label = 模型仓库名
load-hub = 从模型仓库加载
local-files = 本地文件：{" "}
files-hint = 支持 GPT-2、Llama（SmolLM2）和 Qwen2（Qwen2.5）检查点：config.json、model.safetensors（或其分片）、tokenizer.json（或 vocab.json 加 merges.txt）；也可以是 llama.cpp 的单个 .gguf 文件（F32、F16、Q8_0、Q4_0、Q4_K_M、Q5_K_M、Q6_K…），它自带分词器（若旁边有 tokenizer.json 则用它）；把下载好的仓库文件夹拖到这里，或选择这些文件。distilgpt2 约 350 MB；首次下载后浏览器会缓存它。 也可以是第 004 章的 MiniGPT：它的 minigpt.pt 加上训练时用的 tokenizer.json（如有 config.json 也一并选上）。
eight-bit = 以 8 位（Q8_0）保存权重
eight-bit-hint = 全精度模型在加载时按 llama.cpp 的 Q8_0 格式量化：内存约为 F32 模型的三分之一（16 位模型的一半），适合学校的平板和笔记本电脑。每一步读取的字节更少，因此通常也更快，但概率与全精度略有不同，因此结果不再与 HF transformers 完全一致。正在使用的模型会重新加载；.gguf 文件保持其自身的类型。
minigpt-heads = 没有 config.json 时 MiniGPT 的注意力头数：
minigpt-heads-hint = minigpt.pt 里有模型的各项尺寸，唯独没有注意力头数（num_heads）。没有 config.json 说明时就用这个数：教程的 MiniGPT 是 4。它必须能整除宽度（embed_dim）；能整除但不对的头数也能加载，却会胡乱预测，所以请填训练时用的 num_heads。
save-model-folder = 另存为模型文件夹
save-model-folder-hint = 下载一个 zip，内含 config.json（写明头数）、model.safetensors 和 tokenizer.json：把它解压到页面旁的 models/ 文件夹，在那里运行 node scripts/index-models.mjs，全班就能用 ?model=models/<名称>/ 打开它。
worker-slow = 模型工作线程 20 秒后仍未启动。网络慢时它可能还会来；如果看起来卡住了，请重启它（重启后它只用一个线程）。
restart-worker = 重启模型工作线程

## A lesson's questions

questions = 问题
question-n = 问题 { $n }：{" "}
ask-next = 通道 { $lane } 接下来会写哪个词元？
ask-token-n = 通道 { $lane } 的第 { $step } 个词元会是哪个？
question-waiting = 运行这一步，或显示它录制的运行结果，才能看到候选词元。在你回答之前，各通道会一直隐藏。
question-type-it = ……或者输入它：{" "}
question-answer = 回答
question-show = 显示答案
question-pending = 正在用模型的分词器读取你的文本……
place-removed = 被 { $by } 移除
place-outside = 不在它的前 { $shown } 名之内
place-no-step = 没有这一步
answer-lane-wrote = 通道 { $lane } 写的是“{ $token }”。
answer-run-to-see = 运行这一步，看看通道 { $lane } 会写什么。
answer-lane = 答案是通道 { $lane }。
answer-option = 答案是“{ $option }”。
yours-token = 你选了“{ $token }”。
yours-typed = 你输入了“{ $typed }”，读作词元“{ $token }”。
yours-unmatched = 你输入了“{ $typed }”，它不是这一步的任何候选词元。
yours-lane = 你选了通道 { $lane }。
yours-option = 你选了“{ $option }”。
yours-skipped = 你没有猜就看了答案。
verdict-shown = 已显示
verdict-right = 答对了
verdict-wrong = 这次没猜中
verdict = { $verdict }。{" "}
reveal-caption = 你的词元在这一步各通道中的位置
reveal-col-lane = 通道
reveal-col-wrote = 它写的
reveal-col-rank = 你的词元的排名
reveal-col-after = 参数作用后
reveal-col-before = 作用前
quiz-score = 得分：答了 { $answered } 题，对了 { $right } 题（本课共 { $total } 题；只保存在本页面中）。{" "}
quiz-reset = 重新开始答题

## The printed handout

handout-settings = 设置
handout-text = 文本
handout-not-recorded = （未录制：请在页面上运行）
handout-first-token = 通道 { $lane }：第一个词元
handout-col-model = 模型
handout-col-knobs = 参数后
handout-answer-not-recorded = （未录制：运行这一步才能看到）
handout-meta = 共 { $steps } 步 · 模型：{ $model } · 录制的运行结果，与页面显示的一致 · Next-token lab
handout-step = 第 { $step } 步
handout-recording-failed = 无法读取录制的运行结果：{ $why }
handout-key = 答案
handout-key-line = 第 { $step } 步，问题 { $question }：{ $answer }

## What a lesson's own code printed

printed-same = ✓ 这里结果相同
printed-same-draw = 这里结果相同——这次抽样恰好一致
printed-differs = ✗ 在第 { $at } 个字符处分岔：这里是“{ $here }……”
printed-other-draw = 这里抽到了不同的结果，这是预期的
printed-other-model = {" "}——这次运行用的是另一个模型：加载 { $model } 才能比较
printed-not-run = {" "}——在 { $model } 上不加改动地运行这节课才能比较
printed-tally = {" "}——{ $exact } 个确定性通道中有 { $same } 个一致
printed-summary = “{ $source }”在 { $model } 上打印的结果
printed-why = 在 { $model } 上，没有随机性的通道（贪心、束搜索、对比搜索、top_k 1）必须写出和课文完全相同的文本。采样通道做不到：torch 用它自己的随机数，所以这里的种子会从同一个分布中抽到不同的结果。
printed-lane-exact = 通道 { $lane } · 确定性
printed-lane-sampled = 通道 { $lane } · 采样

## Every step (the grid)

grid-label = 所有通道的每一步
grid-heading = 每一步
grid-col-step = 步
grid-cell-at = 通道 { $lane } 第 { $step } 步：{" "}
grid-cell-p = ，p { $p }
grid-cell-rank = ，模型排名 { $rank }

## The plots

plots-label = 逐步图表
plots-hint = 把鼠标悬停在某个点上或点击它，打开那一步的表。
plot-entropy = 参数作用后的熵（奈特）
plot-chosen = 所选词元的概率
plot-nucleus = 占模型 90% 概率的词元数
plot-kept = 参数保留的词元数
plot-point = 通道 { $lane } · 第 { $step } 步 · { $token } · { $value }
plot-step = 第 { $step } 步

## Where the lanes part ways

diverge-heading = ◆ 各通道在第 { $step } 步第一次分岔：
diverge-lane-chose = 通道 { $lane } 选了“{ $token }”
diverge-reasons = ：{ $reasons }。
reason-separator = ；
why-knobs-removed = { $kept ->
   *[other] 参数（{ $knobs }）移除了 { $theirs }：这个通道只保留了 { $kept } 个词元
}
why-below-table = { $theirs } 甚至不在这个通道的前 { $shown } 名之中（p 低于 { $floor }）；{ $mine } { $pick ->
    [given] 是给定的
    [drawn] 是抽到的
   *[highest] 得分最高
}，概率 { $p_mine }
why-removed-by = `{ $knob }` 移除了 { $theirs }（模型 p { $raw }）
why-impossible = { $theirs } 在这里不可能出现
why-given = { $mine } 是给定的（为一段文本打分）
why-drawn = 两个都有可能（{ $theirs } { $p_theirs } 对 { $mine } { $p_mine }）；随机抽样选中了 { $mine }
why-llama-drawn = 两个都通过了 llama.cpp 的采样链（{ $theirs } { $p_theirs } 对 { $mine } { $p_mine }）；它带种子的抽样选中了 { $mine }
why-degeneration = 退化惩罚让 { $mine } 胜过了 { $theirs }
why-lowered = { $knobs } 把 { $theirs } 压到了 { $mine } 之下（模型 p { $p_theirs } 对 { $p_mine }）
why-greedy = 贪心取得分最高的：{ $mine } { $p_mine } 对 { $theirs } { $p_theirs }

## The token inspector

inspector-title = 模型眼中的提示词{" "}
inspector-intro = 模型读的是词元，不是字母。每个词元下面：模型在那个位置认为最可能的五个下一个词元，以及真正跟在后面的词元的排名和概率。训练会给每一行打分；生成只用最后一行。
prompt-reading = 正在读取提示词……
prompt-no-model = 加载模型后才会显示词元
prompt-cut = {" "}（另有 { $cut } 个从开头被截掉：上下文已满）
prompt-token-count = { $tokens } 个词元，上下文共 { $positions } 个位置
prompt-chars-per-token = {" "}· { $chars } 个字符，每个词元 { $per } 个
prompt-chip-title = 第 { $n } 个词元 · id { $id } · 字节 { $bytes }
prompt-chip-part-of = {" "}· 是“{ $char }”的一部分（{ $bytes }）
prompt-next = 下一个：第 { $rank } 名 · { $p }
prompt-next-last = 下一个：从这里开始生成
guesses-label = 模型认为最可能的五个下一个词元
lookup-label = 文本 → id
lookup-placeholder = 。（句号）
use-in = { $knob } 用于
use-in-force-words = 必须包含（force_words_ids）用于

## Models to pick, models kept

catalog-label = 可从模型仓库加载的模型
catalog-facts = { $architecture } · { $params } M 参数 · 下载 { $download }（{ $dtype }）· 约需 { $memory } 内存
catalog-load-label = 加载 { $repo }
catalog-in-use = 使用中
catalog-load = 加载
catalog-default = 默认
instruct-hint = 经过调优，能跟随对话：它的 generation_config.json 会采样（除非另有说明，HF 的 generate() 也会），并在它的回合结束时停止。
cache-title = 已缓存的模型
cache-looking = 正在查看……
cache-none = 本页面无法在这里保存模型（浏览器没有给它存储空间），所以每次访问都要重新下载。
cache-size = {" "}· { $size }，共 { $files } 个文件
cache-in-use = {" "}· 使用中（切换之前会一直保持加载）
cache-forget-label = 删除 { $name }
cache-forget = 删除
cache-empty = 本浏览器没有保存任何模型。
cache-quota = 本站使用了浏览器允许的 { $quota } 中的 { $used }。

## The prompt as a conversation

chat-hint = Instruct 模型是在按它的聊天模板排好的对话上训练的，每一轮前后都有特殊词元。这里会完全按 HF 的 apply_chat_template 的方式渲染你的对话，并把文本放进提示词框；词元检查器会显示其中的特殊词元，各通道会在助手回合结束处停止（模型的 generation_config.json 指明了那个词元）。
chat-title = 把提示词写成对话（使用这个模型的聊天模板）
chat-role-label = 第 { $turn } 轮的角色
chat-text-label = 第 { $turn } 轮的文本
chat-remove-label = 删除第 { $turn } 轮
chat-add = 添加一轮
chat-generation-prompt = {" "}开启助手的回合（add_generation_prompt）
chat-render = 放进提示词

## "Does nothing here" notes on a lane's knobs

note-from-file = {" "}（`{ $knob }` 来自模型的 generation_config.json）
note-does-not-sample = `{ $knob }` 不起作用：{ $why ->
    [beam] 束搜索不采样
    [contrastive] 对比搜索不采样
   *[greedy] 贪心解码不采样（do_sample=false）
}
note-seed-unused = `seed` 不起作用：这个通道里没有任何随机的东西
note-top-k-50 = `top_k=50` 正在起作用：即使你不设置，它也是 HF 的默认值；把 `top_k` 设为 0 才能从整个分布中采样
note-beam-only = `{ $knob }` 只对束搜索有意义（`num_beams` > 1）
note-dola-wrong-mode = `dola_layers` 在这里不起作用：DoLa 只用于贪心解码和采样，不用于 { $mode }（HF 也会忽略它）
note-dola-repeats = DoLa 容易重复自己：HF 建议和 `dola_layers` 一起使用 `repetition_penalty` ≥ 1.2
note-needs-beams = `{ $knob }` 没有束就不起作用：多样束搜索需要 `num_beams` > 1
note-penalty-alpha = `penalty_alpha` 不起作用：对比搜索需要 `top_k` > 1、`do_sample=false` 和 `num_beams=1`
note-repetition-rewarded = `repetition_penalty` 小于 1 会奖励重复，而不是惩罚它
note-no-repeat-one = `no_repeat_ngram_size=1` 禁止所有已经出现过的词元，包括提示词中的
note-min-new-tokens-no-eos = 没有 eos 词元时，`min_new_tokens` 不起作用
note-decay-no-eos = 没有可以提升的 eos 词元时，`exponential_decay_length_penalty` 不起作用
note-forced-bos = `forced_bos_token_id` 只在单词元提示词之后起作用（空提示词就是只有 bos）；提示词更长时它不起作用
note-begin-suppress = `begin_suppress_tokens` 只作用于第一个生成的词元；`suppress_tokens` 作用于每一步
note-renormalize = `renormalize_logits` 在这里不改变任何选择：softmax 和 argmax 不受平移影响；它只在分数相加的地方，也就是束搜索中才有意义
note-remove-invalid = `remove_invalid_values` 只在模型输出 NaN 或 ±inf 时才有意义；它还会把其他参数产生的 -inf 变成最小的有限数（概率仍为 0，但会被算进“保留”）
note-removed-nothing = `{ $knob }` 在这次运行中什么也没移除
note-earlier-cut-more = {" "}——`{ $knob }` 已经截掉了更多
note-changed-no-choice = `{ $knob }` 在这次运行中没有改变任何选择：每个词元都是模型自己的第一选择
note-mirostat-alone = 使用 mirostat 时，llama.cpp 不构建其他采样器：top_k、top_p、min_p、各种惩罚、DRY 和 `samplers` 都不起作用——只有 logit_bias、temperature 和 mirostat 起作用
note-temperature-after = 这里 temperature 在 { $filters } 之后作用于它们保留的词元；HF 先除 logits，所以同样的数字在那边保留的词元不同
note-temperature-not-listed = `temperature` 不在 `samplers` 中：它不起作用
note-penalties-off = repeat_last_n 为 0 会关闭各种惩罚
note-penalty-window = 这里的惩罚只统计最近 { $last } 个词元（repeat_last_n），包括提示词中的；HF 的 repetition_penalty 看的是整段文本
note-penalty-window-context = 这里的惩罚统计整个上下文（repeat_last_n），包括提示词中的；HF 的 repetition_penalty 看的是整段文本
note-llama-defaults = 除非另有说明，llama-server 采样时用 top_k 40、top_p 0.95 和 min_p 0.05；HF 的默认值只有 top_k 50
note-xtc-off = xtc_threshold 大于 0.5 会关闭 XTC
note-dry-base = llama-server 会把小于 1 的 dry_base 换成 1.75
note-random-seed = 和 llama.cpp 一样，seed -1 每次运行都抽取新的随机种子；通道会显示抽到的种子——要重复一次运行或与 llama.cpp 的运行比较，请给一个种子
note-until-context-full = n_predict -1 会一直运行到上下文填满——请设一个词元数
lane-button = 通道 { $lane }
stage-model = 模型
mode-name = { $mode ->
    [greedy] 贪心
    [sample] 采样
    [beam] 束搜索
    [beam_sample] 束采样
    [group_beam] 多样束搜索
    [constrained_beam] 约束束搜索
    [contrastive] 对比搜索
    [llama_cpp] llama.cpp 采样链
   *[other] { $mode }
}
catalog-instruct = 指令版
mode-llama-cpp = llama.cpp 采样链
mode-tutorial = 教程（seed 004）的生成循环

## 错误：通道的参数被拒绝（HF 与 llama-server 的原话在英文版中保留）

err-config-json = 配置不是有效的 JSON：{ $detail }
err-tutorial = 教程通道：`{ $field }`：{ $detail }
err-config-not-object = 配置必须是由 HF generation_config 字段组成的 JSON 对象
err-unknown-field = 没有名为 `{ $field }` 的生成配置字段{ $hint }
err-did-you-mean = ；你是想写 `{ $name }` 吗？
err-unsupported = `{ $field }` 是 HF generate() 的参数，但本实验室不执行它（{ $why }）；请删除它——保留它的通道不会像 HF 那样解码
err-unsupported-why = { $field ->
    [constraints] 它保存的是 Python 的 `Constraint` 对象；请把要出现的词写成 `force_words_ids`
    [token_healing] 尚未实现词元修复
    [max_time] 按墙上时钟计时的上限会让运行无法重现
    [encoder_repetition_penalty] 它作用于编码器的输入，而 GPT-2 没有编码器
    [encoder_no_repeat_ngram_size] 它作用于编码器的输入，而 GPT-2 没有编码器
    [use_mtp] 尚未实现多词元预测
   *[other] 尚未实现推测解码
}
err-bad-value = `{ $knob }`：值的类型或形式不对（{ $detail }）
err-not-a-number = `{ $knob }`：`{ $text }` 不是数字
err-out-of-range = `{ $knob }` 应在 { $range } 范围内，但现在是 { $value }
range-finite = 任意有限数
err-not-finite = `{ $knob }` 必须是有限的数，但现在是 { $value }
err-cannot-be = `{ $knob }` 不能是 { $value }
err-force-words-shape = `force_words_ids` 必须是由正整数组成的 `list[list[list[int]]]` 或 `list[list[int]]`
err-force-words-subset = `nested_token_ids` 中的每个列表都不能是另一个列表的开头部分，但现在是 { $phrases }。
err-watermark-ratio = `watermarking_config.greenlist_ratio` 必须严格介于 0 和 1 之间，但现在是 { $value }
err-watermark-bias = `watermarking_config.bias` 必须是有限的数，但现在是 { $value }
err-watermark-context = `watermarking_config.context_width` 至少为 1，但现在是 { $value }
err-bad-semantics = `semantics` 必须是 "transformers"、"llama.cpp" 或 "tutorial"，现在是 { $got }
err-llama-unknown-field = 没有名为 `{ $field }` 的 llama.cpp 字段{ $hint }

rule-temperature = `temperature`（={ $value }）必须是严格大于 0 的数，否则下一个词元的分数会无效。如果你想要贪心解码，请设置 `do_sample=False`。
rule-too-many-beams = `num_beams` 是 { $asked }；本页面每条通道最多 { $max } 个束
rule-diverse-beams-sample = 多样化束搜索不能在采样模式下使用。请确保 `do_sample` 为 `False`。
rule-more-sequences-than-beams = `num_return_sequences` 必须小于或等于 `num_beams`。
rule-greedy-returns-one = 不带束搜索的贪心方法只支持 `num_return_sequences` 为 1（现在是 { $got }）。
rule-too-many-samples = `num_return_sequences` 是 { $asked }；本页面每条通道最多抽 { $max } 个样本
rule-samples-with-guidance = 这里不支持 `num_return_sequences` > 1 与 `guidance_scale` 同用：一次无条件计算只跟随一个样本
rule-guidance-one-sequence = 这里的 `guidance_scale` 只用于贪心和采样通道（HF 的非批量引导只跟随一条序列，不跟随多个束或对比搜索的候选）
rule-empty-stop-string = `stop_strings` 不能包含空字符串
rule-dola-layers = `dola_layers` 必须是 "low"、"high"，或从 0（嵌入层）数起的非空层号列表
rule-no-dola-candidates = `dola_layers` { $asked } 在这个模型上没有留下可对比的层（{ $layers } 层{ $tied ->
    [yes] ，输出头与嵌入共享
   *[no] {""}
}）；请写 0 到 { $last } 之间的层号
rule-constrained-conflict = `force_words_ids` 会启用约束束搜索，但 `{ $knob }` 被设为 `{ $value }`，与这种生成方式不兼容。
rule-constrained-needs-beams = 约束束搜索（`force_words_ids`）要求 `num_beams` 是大于 1 的整数，但现在是 { $got }
rule-groups-divide-beams = `num_beam_groups` 必须是不大于 `num_beams` 的整数，且 `num_beams` 必须能被 `num_beam_groups` 整除，但现在是 { $groups }，而 `num_beams` 是 { $beams }。
rule-groups-need-penalty = `diversity_penalty` 应大于 `0.0`，否则各组会完全相同。
rule-penalty-needs-groups = `diversity_penalty` 需要 `num_beam_groups` > 1：惩罚作用于前面各组选过的词元，只有一组时前面没有组
rule-nan-bias = `sequence_bias` 的偏置必须是数字，不能是 NaN
rule-exponential-decay = `{ $knob }` 是 [start_index, decay_factor]，要求 start_index >= 0 且 decay_factor 为正，但现在是 [{ $start }, { $factor }]
rule-not-a-token-id = `{ $knob }` 只能包含非负的词元 id，但其中有 { $id }
rule-no-id-lists = `{ $knob }` 必须是非空的词元 id 列表的列表
rule-empty-id-list = `{ $knob }` 不能包含空的词元 id 列表
rule-outside-vocabulary = `{ $knob }` 提到了词元 { $id }，超出了 { $size } 个词元的词表

llama-rule-between = `{ $knob }`：值必须满足 { $min } <= 值 <= { $max }，但现在是 { $got }
llama-rule-infill = `infill` 需要“中间填充”模型的特殊词元，而 GPT-2 没有；请把它从 `samplers` 中删除
llama-rule-nothing-to-predict = 在 llama-server 中 `n_predict` 为 0 只读取提示词；请写 -1（直到上下文写满）或要生成的词元数
llama-rule-seed = `seed` 是 32 位无符号数（或 -1），但现在是 { $got }
llama-rule-repeat-penalty = penalty_repeat 必须是大于 0 的有限数，但 `repeat_penalty` 是 { $got }
llama-rule-no-breakers = 错误：dry_sequence_breakers 必须是非空的字符串数组
llama-rule-unknown-sampler = `samplers`：`{ $name }` 不是 llama.cpp 的采样器{ $hint }；llama.cpp 会给出警告并跳过它——可用的采样器有 { $samplers }
llama-sampler-hint = （你是想写 `{ $name }` 吗？）
llama-rule-logit-bias = `logit_bias`：{ $problem }
logit-bias-not-a-bias = 偏置是数字或 false，不能是 { $value }
logit-bias-not-a-token-id = { $value } 不是词元 id
logit-bias-not-a-token = 词元是一个 id 或一段文本，不能是 { $value }
logit-bias-not-a-pair = 每一项都是 [词元, 偏置]，不能是 { $value }
logit-bias-not-list-or-object = 请写 [[词元, 偏置], ...] 或 {"{"}"词元": 偏置{"}"}，不能是 { $value }
llama-rule-outside-vocabulary = `logit_bias` 提到了词元 { $id }，超出了 { $size } 个词元的词表

toy-too-few = 请至少输入两个数，用逗号分隔（例如 2, 1, 0.1, -1, -2）
toy-too-many = 最多 { $max } 个数
toy-not-a-number = 第 { $position } 个（`{ $text }`）不是数字

## 错误：课程文件被拒绝

lesson-refused = 无法打开这个课程：{ $why }
lesson-at = 在 `{ $path }`：{ $why }
lesson-too-large = 文件有 { $bytes } 字节；课程文件最多 { $max } MB（较长的录制运行请另存为旁边的文件）
lesson-not-json = 它不是 JSON：{ $detail }
lesson-not-object = 它不是带有 `version` 和 `steps` 的 JSON 对象
lesson-no-version = 它没有 `version`（本页面读取第 { $version } 版课程格式）
lesson-other-version = 它是第 { $got } 版课程格式；本页面读取第 { $version } 版（更新的页面也许能打开它）
problem-empty = 它是空的
problem-too-long = 它超过了 { $max } 个字符
problem-too-many = 它有 { $found } 个；最多读取 { $max } 个
problem-language = `{ $got }` 不是 `en` 或 `zh-CN` 这样的语言标签
problem-model = `{ $got }` 不是 `bundled`（页面自带的离线模型）、模型仓库 id（`owner/name`），也不是本页旁的模型文件夹（`models/name/`）
problem-no-such-lane = 没有第 { $lane } 条通道：这一步只有第 1 到第 { $lanes } 条
problem-no-such-option = 没有第 { $answer } 个选项：这道题只有第 1 到第 { $options } 个选项
problem-option-count = 选择题需要 2 到 { $max } 个选项；这里有 { $found } 个
problem-step-zero = 步骤从 1 开始计数
problem-out-of-range = 它是 { $found }；必须在 { $min } 到 { $max } 之间
problem-recording-path = `{ $got }` 不是课程旁边 `.json` 文件的路径（不能有 `..`、不能以 `/` 开头、不能指向其他网站）
problem-recording-lanes = 录制的运行有 { $runs } 条通道，而这一步有 { $lanes } 条
problem-recording-prompt = 录制的运行的提示词与这一步的提示词不同

## 错误：页面本身

pick-no-config = 请把 config.json 与模型的其他文件一起选上（config.json、model.safetensors、tokenizer.json）
pick-no-tokenizer = 还需要选 tokenizer.json（或 vocab.json 加 merges.txt）
pick-pickle-only = pytorch_model.bin 是浏览器无法读取的 PyTorch pickle 文件；请用 transformers 转换（save_pretrained(..., safe_serialization=True)），然后选它写出的 model.safetensors
pick-no-weights = 还需要选 model.safetensors（或它的全部分片，或一个 llama.cpp 的 .gguf 文件）
pick-whole-and-shards = model.safetensors 与它的分片只能选一种，不能都选
pick-several-gguf = 只能选一个 .gguf 文件，不能选多个（{ $names }）
pick-several-pt = 只能选一个 .pt 文件，不能选多个（{ $names }）
pick-gguf-and-safetensors = .gguf 文件与 safetensors 权重只能选一种，不能都选
page-read-file = 无法读取 { $name }
page-too-large = `{ $name }` 有 { $mb } MB；加载它约需 { $need } GB 内存，超过浏览器标签页中模型可用的 4 GB
page-save = 无法保存 { $name }：{ $what }
page-no-plots = 还没有可保存的图
page-worker-start = 无法启动工作线程：{ $detail }
page-recording-too-large = `{ $name }` 有 { $mb } MB；录制的运行最多 { $max } MB
page-not-a-recording = `{ $name }` 不是本页面导出的运行（JSON 导出或 `decode --json`）：{ $detail }
page-empty-recording = `{ $name }` 里没有可回放的运行
page-fetch = 无法获取 `{ $url }`：{ $why }
page-fetch-status = 无法获取 `{ $url }`：网站返回 { $status } { $text }
page-fetch-too-large = `{ $url }` 超过了 { $max } MB
page-recording-misfit = 录制的运行 `{ $name }` 与它所在的步骤不符：{ $why }

## 页面在通道上方和参数旁说的话

said-no-knob = 这条通道没有名为 `{ $name }` 的参数
said-sandbox-not-a-number = `{ $knob }`：`{ $text }` 不是数字（留空表示关闭）
said-score-needs-text = 请先输入要评分的续写
said-worker-down = 模型工作线程没有运行；请先重启它
drawn-seed = 种子 { $seed }，为这次运行抽取（这个通道没有自己的种子）。
keep-seed = 保留这个种子
keep-seed-title = 把这个种子设为通道自己的种子，下次运行就会重复这一次
said-out-of-memory = 模型工作线程在运行 { $model }{ $size }{ $device }时内存不足。新的工作线程已经启动，但没有加载模型；你的提示词和通道都已保留。请选一个更小的模型（内置模型可离线使用），或关闭其他标签页后再加载这个模型。
oom-size = （权重 { $weights }，运行{ $cache }约需 { $need }）
memory-cache = （含四个通道各 { $tokens } 个词元的缓存）
oom-device = （设备报告内存 { $gb } GB）
oom-no-model = 尚未加载模型
site-models-format = 本站的 models/index.json 不是模型索引（{ $why }），所以没有列出托管的模型。
site-models-too-many = 本站的 models/index.json 列出了 { $found } 个文件夹；最多读取 { $max } 个，所以一个也没有列出。
site-models-folder = 本站的 models/index.json 列出了 `{ $folder }`，它不是 models/ 下的一个普通文件夹名，所以没有列出托管的模型。
hosted-models = 与本页一起托管
hosted-load-label = 加载模型文件夹 { $path }
hosted-facts = { $architecture } · 下载 { $download } · 约需 { $memory } 内存
hosted-facts-unknown = 未列出大小
hosted-too-large = 对浏览器标签页来说太大
said-run-stalled = 这次运行已有 { $seconds } 秒没有收到模型工作线程的消息，所以停止了；各通道保留已写出的内容。请再运行一次——如果工作线程仍不回应，请重启它。（较慢的设备或很长的提示词可能需要更多时间：在地址中加上 ?stall=秒数。）
said-no-random-seed = 浏览器没有给出用于新种子的随机数（{ $why }）：请给每个采样通道设一个种子，或打开共享随机数
said-model-not-ready = 模型还没有准备好
said-chat-needs-turn = 请先添加一轮对话
said-worker-crashed = { $why }。你的提示词和设置都已保留；重启工作线程即可继续。
said-worker-unreadable = 工作线程发来了{ $known ->
    [yes] 一条 `{ $kind }`
   *[no] 一条
} 消息，本页面无法读取（{ $detail }）。{ $stopped ->
    [yes] 运行已停止；模型仍已加载，点“运行”即可重新开始。
   *[no] {""}
}
said-branched = 已从第 { $lane } 条通道的第 { $step } 步以“{ $token }”分支：每条通道都从这 { $tokens } 个词元继续。修改提示词会重新开始。
said-hub-offline = 无法连接模型仓库网站（{ $why }）。改为运行页面自带的离线模型。
said-first-runs-shown = `{ $name }` 中有 { $runs } 次运行；只显示前 { $lanes } 次。
said-not-a-repo-id = `{ $text }` 不是 distilbert/distilgpt2 这样的 模型仓库 id

## 错误：分享链接或课程地址被拒绝

link-refused = 无法打开这个分享链接：{ $why }
link-too-long = 它有 { $length } 个字符；最多读取 { $max } 个
link-no-version = 它没有版本前缀（应以 `1.` 开头）
link-other-version = 它由另一个版本的页面生成（链接格式 `{ $got }`；本页面读取 `{ $version }`）
link-not-base64 = 它的数据不是 base64url（复制时是否被截断了？）
link-damaged = 它的数据已损坏或过大（复制时是否被截断了？）
link-not-page-state = 它的内容不是页面状态：{ $detail }
link-prompt-too-long = 它的提示词超过了 { $max } 个字符
link-score-too-long = 它要评分的文本超过了 { $max } 个字符
link-lane-count = 它有 { $lanes } 条通道；页面只有 1 到 { $max } 条
link-lane = 第 { $lane } 条通道：{ $why }
link-model = 它指定的模型 `{ $got }` 不是自带模型、模型仓库 id（owner/name），也不是本页旁的模型文件夹（models/name/）；模型仓库中的某个 .gguf 文件写作 owner/name:Q4_K_M
link-chat-turns = 它的对话有 { $turns } 轮；最多读取 { $max } 轮
link-chat-turn-too-long = 它的对话中有一轮超过 { $max } 个字符
lesson-address-empty = `?lesson=` 是空的：请写本网站上课程文件的路径，例如 `?lesson=lessons/four-runs.json`
lesson-address-other-site = `?lesson={ $path }` 指向另一个网站；课程只能从本页面所在的网站打开（例如 `lessons/mine.json`）——请下载它，再选择该文件
lesson-address-not-json = `?lesson={ $path }` 不是 `.json` 文件的路径
said-no-constrained-search-in-llama = llama.cpp 没有约束束搜索：要让通道包含某个短语，请把它切换到 transformers

## 工作线程关于下载模型的话

net-connection-failed = 与模型仓库网站的连接断开了
net-hub-answered = 模型仓库网站返回 { $status } { $text }
net-broke-off = { $file } 的下载中断了{ $known ->
    [yes] （已下载 { $loaded } / { $total } MB）
   *[no] {""}
}{ $resuming ->
    [yes] ；将从中断处继续
   *[no] {""}
}
load-unreachable = 无法连接 { $url }（离线，或该网站被屏蔽）
load-gave-up = { $why }，已连续 { $attempts } 次；请稍后再试
load-wait-too-long = { $why }，并要求等待 { $seconds } 秒；请稍后再试
load-private = { $url } 返回 HTTP { $status }：这个仓库是私有的、需要申请访问，或不存在。本页面下载时不登录；需要申请的模型，请在你已同意其条款的地方下载文件，再在这里选择它们
load-answered = { $url } 返回 HTTP { $status } { $text }
load-no-config = { $repo } 没有 config.json：它是 transformers 的模型仓库或文件夹吗？
load-no-tokenizer = { $repo } 既没有 tokenizer.json，也没有 vocab.json 加 merges.txt
load-pickle-only = { $repo } 只有 pytorch_model.bin，这是浏览器无法读取（也不应读取：pickle 可以运行代码）的 PyTorch pickle 文件。请用 transformers 转换一次（`AutoModelForCausalLM.from_pretrained("{ $repo }").save_pretrained("out", safe_serialization=True)`），然后选择 out/ 中的文件，或换一个有 model.safetensors 的仓库
load-no-weights = { $repo } 没有 model.safetensors（也没有 { $index }）
load-shard-missing = { $repo } 的 { $index } 列出了 { $name }，但仓库里没有这个文件
load-gguf-no-files = { $repo } 中没有单文件的 .gguf 模型{ $has_split ->
    [yes] （有 { $split } 个分卷文件，本页不读取分卷：请用 llama.cpp 的 `gguf-split --merge` 合并，再把这个文件放进模型文件夹）
   *[no] {""}
}
load-gguf-no-such-file = { $repo } 中没有文件 { $name }{ $listed ->
    [yes] ；它有 { $files }
   *[no] {""}
}
load-gguf-no-such-tag = { $repo } 中没有量化为 { $tag } 的文件；它有 { $files }
load-gguf-ambiguous = { $repo } 中有 { $count } 个文件量化为 { $tag }（{ $files }）；请改为写出文件名：{ $repo }:文件名.gguf
load-gguf-choose = { $repo } 有 { $count } 个 .gguf 文件，其中没有 Q4_K_M（llama.cpp 的默认选择）；请选择一个：{ $files }
load-already-loading = 已经有一个模型正在加载
load-nothing-to-load = 没有可加载的来源
notice-storage-full = 浏览器为本网站留的存储空间已满，所以模型只在内存中运行，下次访问时会重新下载（可在模型的“已缓存的模型”中或浏览器的网站设置里释放空间）
notice-storage-refused = 浏览器不肯保存它，所以模型只在内存中运行，下次访问时会重新下载（可在模型的“已缓存的模型”中或浏览器的网站设置里释放空间）
notice-no-resume = 服务器不支持断点续传（它忽略了 Range 请求），所以 { $file } 会从头重新下载
notice-plain-prompts = { $why }；提示词保持为纯文本
retry-countdown = { $why }；{ $seconds } 秒后重试（第 { $attempt } 次，共 { $of } 次）
retry-other-tab = 另一个标签页正在下载 { $file }；完成后这个标签页会从缓存中读取
said-nothing-to-score = 要评分的文本至少要包含一个这个词表里的词元
said-negative-prompt-too-long = 通道 { $lane }：反向提示词（{ $tokens } 个词元）加上最多 { $new } 个新词元，超出了模型的 { $positions } 个位置；请缩短它，或少要一些词元
lesson-link-refused = 无法打开这个课程链接：{ $why }
lesson-link-too-long = 这个课程做成链接有 { $chars } 个字符；链接最多 { $max } 个：请把文件放到课程网站上，用 `?lesson=` 链接它
lesson-from-link = 来自链接
lesson-link-copy = 复制课程链接
lesson-link-copy-title = 把整节课放进一个链接（不用托管文件）：步骤、说明、通道和问题；本网站上录制的运行以路径的形式随链接带走
lesson-link-label = 课程链接
lesson-link-left = { $runs ->
   *[other] 有 { $runs } 次录制的运行没有随链接带走（它们内嵌在文件里，或在所选文件的旁边）：这些步骤将现场运行。
}

## 课程编写器：把页面存为课程步骤，并下载整节课。
lesson-from-writer = 你正在编写的课程的预览
writer-heading = 编写课程
writer-intro = 设置好提示词和通道，运行它们，再把页面存为一个步骤。课程保存在这个浏览器里，直到你把它下载为文件，用来托管、链接或嵌入。
writer-step-title-label = 步骤标题
writer-note-label = 给学生的说明（Markdown）
writer-attach = 附上屏幕上的运行结果（这一步立即显示，不用下载模型）
writer-question-kind = 显示运行结果之前的问题
writer-question-none = 不提问
writer-question-next-token = 某个通道的下一个词元是什么？
writer-question-which-lane = 哪个通道……？（答案是一个通道）
writer-question-choice = 选择题
writer-question-lane = 所问的通道
writer-question-answer-lane = 正确的通道
writer-question-ask = 问题
writer-question-options = 选项，每行一个
writer-question-answer = 正确选项（序号）
writer-question-explanation = 回答后显示的解释
writer-save-step = 存为课程步骤
writer-save-step-title = 把提示词、通道、说明和问题（以及屏幕上的运行结果）作为下一步加入课程
writer-saved = 已存为第 { $step } 步，共 { $steps } 步。
writer-lesson-title = 课程标题
writer-language = 课程语言
writer-model = 为这个模型编写：{ $model }
writer-empty = 还没有步骤：第一次“存为课程步骤”就开始这节课。
writer-step-title-aria = 第 { $n } 步的标题
writer-step-note-aria = 第 { $n } 步的说明
writer-step-up = 把第 { $n } 步上移
writer-step-down = 把第 { $n } 步下移
writer-step-remove = 删除第 { $n } 步
writer-step-what = “{ $prompt }” · { $lanes } 个通道 · { $questions ->
    [0] 没有问题
   *[other] { $questions } 个问题
}{ $recorded ->
    [yes] {" "}· 已录制运行
   *[no] {""}
}
writer-preview = 预览
writer-preview-title = 在课程播放器里打开这节课，就像学生看到的那样
writer-download = 下载课程文件
writer-download-title = 把课程存为 JSON 文件：放在页面旁边用 ?lesson= 打开，或在任何一份页面上选择它
writer-clear = 开始新课程
writer-clear-title = 从浏览器里删除这节课（要保留请先下载）
writer-not-kept = 这个浏览器无法保存这节课（存储已满或被关闭）：离开页面前请先下载。
writer-no-run = 没有这些通道已完成的运行可以附上：请先运行，或不附运行结果保存这一步
writer-run-differs = 屏幕上的运行不是这个提示词和这些通道的（运行后它们改过了）：请再运行一次，或不附运行结果保存这一步
writer-shared-randomness = 共享随机数已打开，而课程步骤给每个通道各自的种子，所以这一步不会像这里一样运行：请关闭共享随机数再保存
writer-library-defaults = 通道 { $lane } 从库的默认值开始；课程步骤的通道从模型的设置开始：请把通道 { $lane } 切换到模型的设置再保存这一步
writer-no-model-name = 模型是从这台电脑上的文件加载的，而课程只能指定内置模型或模型仓库：请加载其中之一再编写课程
writer-other-model = 这节课是为 { $lesson } 编写的，而页面现在运行的是 { $page }：请重新加载 { $lesson }，或开始新课程
writer-other-weights-eight-bit = 这节课的模型以 8 位保存权重，而页面现在按原样保存：请重新勾选“以 8 位（Q8_0）保存权重”，或开始新课程
writer-other-weights-as-stored = 这节课的模型按原样保存权重，而页面现在以 8 位保存：请取消勾选“以 8 位（Q8_0）保存权重”，或开始新课程
writer-too-large = 附上这次运行后课程会有 { $kb } kB，而课程文件最多读取 { $max } kB：请不附运行结果保存这一步
writer-full = 一节课最多 { $max } 步
writer-clear-confirm = 要从这个浏览器里删除这节课{ $named ->
    [no] {""}
   *[other] “{ $title }”
}（{ $steps } 步）吗？要保留请先下载。

## 把课程打包上传（SCORM 1.2）。
package = 下载为课程包
package-title = 一个 zip：页面、这节课、它录制的运行和内置模型：上传到学校的网站空间，或作为 SCORM 1.2 课程包上传到学习管理系统（Moodle、Canvas 等）
package-measuring = 正在查看课程包包含哪些文件……
package-holds = “{ $title }”的课程包包含页面、课程、{ $runs } 个录制的运行{ $model ->
    [yes] 和内置模型
   *[no] {""}
}：{ $mb } MB。
package-hub-model = 这节课在 { $model } 上运行：课程包里没有模型，每个学生的浏览器会从模型仓库下载它。
package-left-behind = 有 { $runs } 个录制的运行无法带上（它们在所选文件旁边）：这些步骤会实时运行。
package-how = 解压到任何网站空间后，它的 index.html 会离线打开这节课。学习管理系统可以直接导入这个 zip（SCORM 1.2），并收到这节课的得分和完成情况。
package-download = 下载课程包（{ $mb } MB）
package-cancel = 暂不下载
package-packing = 正在打包：第 { $done } 个文件，共 { $total } 个……
package-done = 已保存 { $name }（{ $mb } MB）。
package-site-files = `site-files.json` 不是构建生成的页面文件清单：{ $why }
package-zip = 无法写入课程包：{ $why }

## 多次采样汇成一棵树。
tree-title = 多次采样汇成一棵树
tree-intro = 让一个通道运行许多次、每次只写几个词元，每个样本各自随机抽取，看样本在哪里分道扬镳。每个分支标出有多少样本写出了它，旁边是这个通道的参数给整条路径的概率：样本越多，两者越接近。
tree-lane = 通道
tree-lane-n = 通道 { $lane }
tree-samples = 样本数
tree-tokens = 每个样本的词元数
tree-grow = 生成这棵树
tree-cancel = 停止
tree-progress = 第 { $level } 个词元（共 { $levels } 个）· 模型已计算 { $rows } 行
tree-summary = 通道 { $lane } 的 { $samples } 个样本（种子 { $seed }），每个 { $tokens } 个词元：共 { $branches } 个分支。开头相同的样本共用计算，所以模型只算了 { $rows } 行，而不是 { $separate } 行。用时 { $seconds } 秒。
tree-summary-cancelled = 提前停止：通道 { $lane } 的 { $samples } 个样本（种子 { $seed }）停在各自走到的地方，共 { $branches } 个分支，模型计算了 { $rows } 行，用时 { $seconds } 秒。
tree-legend = 每个方框是一个词元。旁边加粗的是写出这个分支的样本所占比例，p 是这个通道的参数给整条路径的概率。线越粗，经过的样本越多；■ 表示样本在这里结束；不到 2% 的分支被折叠。选择一个分支可以查看它的路径。
tree-svg-label = 样本的续写汇成的树
tree-node-title = “{ $token }”：{ $samples } 个样本中的 { $count } 个（{ $share }）；参数给这条路径的概率是 { $prob }，模型本身是 { $raw }
tree-more = 另有 { $branches } 个分支：{ $count } 个样本（{ $share }）
tree-path-share = { $samples } 个样本中有 { $count } 个写出了这段（{ $share }）。这个通道的参数给它的概率是 { $prob }；不加参数时模型给 { $raw }。
tree-col-token = 词元
tree-col-count = 样本数
tree-col-prob = p（参数后）
tree-col-raw = p（模型）
tree-follow = 在每个通道中打开这些步骤
tree-export-json = 保存这棵树（JSON）
tree-export-svg = 保存图（SVG）
tree-refused-samples = 一棵树要抽取 { $asked } 个样本；只能是 1 到 { $max } 个
tree-refused-tokens = 一棵树要让每个样本写 { $asked } 个词元；只能是 1 到 { $max } 个
tree-refused-not-sampling = 树需要一个抽样通道：这个通道用 { $mode } 解码，无论运行多少次都写出同样的文本；请打开 do_sample
tree-refused-unsupported = 树暂时还不能从{ $what }中抽样：请选择一个不使用它的 transformers 抽样通道
tree-unsupported-llama-cpp = llama.cpp 的采样链
tree-unsupported-tutorial = 教程自己的循环
tree-unsupported-dola = DoLa（dola_layers）
tree-unsupported-guidance = 无分类器引导（guidance_scale）
tree-refused-too-large = 在这个模型上，{ $samples } 个样本 × { $tokens } 个词元可能需要 { $need } 的键和值，超过了一棵树可用的 { $budget }：请减少样本数或词元数
beam-tree-title = 束搜索的树
beam-tree-intro = 搜索在每一步权衡过的每个续写，挂在它所延伸的那一束下面。旁边是它的对数概率之和（搜索的得分，越高越好）以及它的去向。选择一个，就在每个通道里打开那一步的表格。
beam-tree-legend = 实线方框继续作为束；■ 表示假设在这里结束；虚线方框被舍弃。粗线是搜索返回的文本（★）；#2、#3… 标出它返回的其他序列。
beam-tree-svg-label = 束搜索的假设汇成的树
beam-tree-summary = 通道 { $lane } 在 { $steps } 步中权衡了 { $weighed } 个续写：{ $kept } 个继续作为束，{ $finished } 个作为假设结束，{ $dropped } 个被舍弃。
beam-tree-summary-growing = 通道 { $lane } 正在搜索：到目前为止在 { $steps } 步中权衡了 { $weighed } 个续写。
beam-tree-node-title = 第 { $step } 步：“{ $token }”，对数概率之和 { $score }，{ $fate }
beam-tree-open = 第 { $step } 步，对数概率之和 { $score }：{ $fate }。这一步的表格已在上方打开。
beam-tree-returned = 搜索把它作为第 { $k } 个序列返回。
beam-tree-export-json = 保存这棵树（JSON）
lane-model-not-a-model = `{ $name }` 不是本页能加载的模型：请写 `bundled`、模型仓库 id（owner/name）或本页旁的模型文件夹（models/name/）
lane-model-size-unknown = 无法得知 `{ $name }` 的大小，本页无法判断它能否与当前模型同时放下；请把它作为本页的模型加载
lane-model-too-big = `{ $name }` 放不下：它约需 { $memory }（下载 { $download }），而工作线程已占用 { $held }；{ $limit }
lane-model-limit-device = 本设备报告 { $gb } GB 内存，一个标签页约可用一半
lane-model-limit-wasm = 一个标签页的 WebAssembly 最多 4 GB
lane-model-load = `{ $name }` 未能加载：{ $why }
lane-model-load-file = `{ $name }` 未能加载（{ $file }）：{ $why }
link-lane-model = 第 { $lane } 条通道的模型 `{ $name }` 不是自带模型、模型仓库 id（owner/name），也不是本页旁的模型文件夹（models/name/）
lane-model = 本通道的模型
lane-model-title = 让本通道在它自己的模型上运行：`bundled`、模型仓库（owner/name）或本页旁的文件夹（models/name/）。留空：使用本页的模型。
lane-model-placeholder = 本页的模型
lane-model-on = 使用
lane-model-cost = 需下载 { $download }，约占内存 { $memory }
lane-model-measuring = 正在查询大小…
lane-model-queued = 等待加载
lane-model-loading = 加载中…
lane-model-loading-share = 已加载 { $percent } %
lane-model-ready = 已加载：{ $layers } 层，{ $vocab } 个词元
lane-model-failed = 未加载
compare-by-text = 这些通道运行在不同的模型上，词表不同：各行按词元的文字对齐，而不是按 id。
lane-model-sized = 运行时加载
diverge-text-heading = 这些通道运行在不同的模型上，所以按文字比较：它们都写出“{ $shared }”，然后
diverge-text-at-once = 这些通道运行在不同的模型上，所以按文字比较：它们从第一个字符起就不同。
diverge-text-lane = 第 { $lane } 条通道接着写“{ $token }”（它的第 { $step } 步）
drift-no-reference = 权重。要看这一步离全精度有多远，请在另一条通道里填写同一个按原样保存的模型（页面的模型以 8 位保存时，填写它的通道会得到原样的模型）。
drift-against = {" "}权重，对照{" "}
drift-colon = ：
drift-page-model = 页面的模型
drift-measuring = 正在计算…
drift-measured = KL 散度 { $kl } 奈特。{ $agree ->
    [yes] 两者都把“{ $top }”排在第一（这里 { $p }，全精度 { $reference_p }）。
   *[no] 这里最可能的词元是“{ $top }”（{ $p }）；全精度下是“{ $reference_top }”（{ $reference_p }）。
}
drift-title = KL(全精度 ‖ 本通道)：在同样的文字之后，这条通道在这一步的分布离全精度模型的分布有多远，单位是奈特（两者相同时为 0）。每个权重的位数越少，每个概率都会略有变化。
