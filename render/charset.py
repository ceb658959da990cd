"""The characters the shipped fonts must cover (字符集).

`render/build_font.py` subsets the label font to these characters — GB2312, the 5,401
common characters of Big5 (常用字), every Hangul syllable, the names below — plus every
CJK character of RULES.md and of the project's own source (:func:`source_text`); the
fallback fonts (后备字体) get the scripts, symbols and emoji of :data:`FALLBACK_RANGES` the
label font lacks. The characters each font really keeps are written to ``assets/glyphs*.txt``,
which the renderers read at run time to pick a font per character and to replace anything
no font has by ``?``.
"""

from __future__ import annotations

from pathlib import Path

#: Characters drawn on the tile faces themselves (and their badges: 宝, 南昌 正精 / 副精).
TILE_CHARS = "一二三四五六七八九万东南西北中发白宝正副"

#: Words used on table, hand and result pictures (labels, scoring items, statuses).
LABEL_CHARS = (
    "一二三四五六七八九十零百千万两筒饼条索东南西北中发白宝庄家自摸点炮抢杠胡碰吃过听剩余张局分番"
    "第圈风手轮到秒牌墙指示合计总得失胜负赢输平本结算倒时等待出打放和上下对新旧"
    "流荒黄开花海底捞针报托管机器人玩跟门清暗明补飞接天地杠吊头无有全求红旗飘"
    "七对豪华九幺十三烂浪星碰碰一色混字条龙仙女独钓边卡单兴起来偷包叁四个"
    "庄闲本局总计分数赔付收支变化名次排行"
)

#: Common surnames and given-name characters, so most Chinese display names draw in full.
NAME_CHARS = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏"
    "魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵"
    "万钱严覃武戴莫孔向汤欧阳司徒诸葛上官"
    "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红建文辉力鹏飞斌宇浩凯健俊帆帅旭宁婷"
    "雪琳晨欣怡佳子轩涵睿博思雨泽诺梓萱嘉豪墨晓小大老阿哥姐弟妹叔爷奶猫狗虎鱼鸟熊兔猪牛羊"
    "志国庆春秋冬夏天云山水海波涛峰林森木火土金日月星光亮阳晴风花草叶梅竹菊荷莲心爱美好乐笑"
    "永长安康福寿喜祥瑞德仁义礼智信忠孝勤诚真善宏伟毅坚荣耀辰龙凤麟鹤鹰燕莺蝶珍珠宝贝晶琪琦"
    "瑶瑾璐婉婧妍媛娇颖慧聪敏捷锋铭钧鑫森淼焱垚磊晶品众"
)

#: About 600 of the most frequent Chinese characters (names, nicknames, notes), and
#: mahjong terms the rules describe in English (刻 顺 将 …).
COMMON_CHARS = (
    "的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年得就那要下以生会自着去之过家学"
    "对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头"
    "面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向"
    "情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信"
    "北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难"
    "神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物"
    "台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指"
    "思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步"
    "完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双"
    "历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志观"
    "争究包组造落视济喜离虽坐集编谈府拉黑且随格尽剑讲布杀微怕母调局根曾准团段终乐切级克精哪官示"
    "冷域刻顺将雀眼嘛吧啊哦哈嘿呀喵汪猫咪龟蛇鸭鹅鸡蛋糖茶酒饭面包果菜肉米饺子汤锅碗杯盘"
    "胖瘦高矮帅酷萌甜辣酸苦咸懒笨聪傻乖坏狼狐熊豹鲸鲨鹿獭"
)

#: Name and nickname (网名) characters outside GB2312 and Big5's common set: rarer given-name
#: characters (喆 堃 玥 昳 珺 …) and the playful ones of online names (龘 囧 槑 烎 …).
RARE_NAME_CHARS = (
    "兲喆囧垚堃妘姮婍婠婳婼媞嫄嫑嫚嬛峣巭彧旸旻旼昳暐曌梽槑氼沄洢洺浛涴淏渼湉溦炆炘烎燊燚犇玊"
    "玙玭玹珺琇琤琲瑀瑄瑢瑨璠祎禕禛翀翯翾芃褀贇赟鋆镕靐頔颋骉鹍鹓齉龘玥"
)

#: Every Hangul syllable (한글 음절, U+AC00–U+D7A3): any Korean name.
HANGUL_SYLLABLES = (0xAC00, 0xD7A3)

#: Big5's common characters (常用字, level 1): lead bytes A4–C6, up to C67E.
BIG5_COMMON = ((0xA4, 0xC6), 0xC67E)


def gb2312_characters() -> set[str]:
    """Every character of GB2312 (6,763 hanzi and its symbols, kana, Greek, Cyrillic)."""
    out: set[str] = set()
    for hi in range(0xA1, 0xF8):
        for lo in range(0xA1, 0xFF):
            try:
                out.add(bytes((hi, lo)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return out


def big5_common_characters() -> set[str]:
    """The 5,401 common characters of Big5 (常用字), the 繁體 names' everyday set."""
    (first, last), end = BIG5_COMMON
    out: set[str] = set()
    for hi in range(first, last + 1):
        for lo in (*range(0x40, 0x7F), *range(0xA1, 0xFF)):
            if (hi << 8) | lo > end:
                break
            try:
                out.add(bytes((hi, lo)).decode("big5"))
            except UnicodeDecodeError:
                continue
    return out


#: Printable non-CJK ranges kept for player names (Discord display names).
NAME_RANGES: tuple[tuple[int, int], ...] = (
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x00FF),  # Latin-1 supplement
    (0x0391, 0x03A1),  # Greek capitals
    (0x03A3, 0x03A9),
    (0x03B1, 0x03C9),  # Greek small
    (0x0410, 0x044F),  # Cyrillic (basic)
    (0x3041, 0x3096),  # Hiragana
    (0x30A1, 0x30FA),  # Katakana
)

#: What the fallback fonts (后备字体) are asked for, wherever the label font lacks it: the
#: first (DejaVu Sans Bold) for other alphabets and symbols — accented Latin, Vietnamese,
#: Greek, Cyrillic, Armenian, Georgian, Hebrew, IPA, arrows, maths, boxes, dingbats; the
#: second (Symbola) for emoji, pictographs, playing cards and mahjong tiles.
FALLBACK_RANGES: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0x0000, 0x1FFF), (0x2000, 0x2BFF), (0x2C60, 0x2C7F), (0xA720, 0xA7FF), (0xFB00, 0xFB4F)),
    ((0x2300, 0x23FF), (0x2600, 0x27BF), (0x2B00, 0x2BFF), (0x1F000, 0x1FAFF)),
)

#: Punctuation and symbols used by labels.
SYMBOL_CHARS = "×−–—±·•…→←↑↓▶◀★☆●○■□◆◇✓‘’“”，。、！？：；（）【】《》「」〇～"


#: Project folders whose Chinese text (labels, messages, scoring items) can reach a picture.
#: ``engine`` holds the engine's own texts (variant and scoring-item names) in 简体 and 繁體.
SOURCE_DIRS = ("cogs", "services", "render", "engine")
#: The message catalogues (消息目录) of every locale — 简体 ``zh``, 繁體 ``zh_TW``, ``en`` —
#: whose words the callers pass into the pictures (labels, titles, scoring items).
CATALOGUE_DIR = "i18n/locales"


def source_text(root: Path) -> str:
    """The text of every ``.py`` file under :data:`SOURCE_DIRS` and of every ``.po``
    catalogue under :data:`CATALOGUE_DIR` (all locales) of the project at ``root``, so that
    every Chinese word the bot can say, in 简体 or 繁體, is in the subset."""
    parts = []
    for folder in SOURCE_DIRS:
        for path in sorted((root / folder).rglob("*.py")):
            if not path.name.startswith("_agari_table"):
                parts.append(path.read_text(encoding="utf-8"))
    for path in sorted((root / CATALOGUE_DIR).rglob("*.po")):
        parts.append(path.read_text(encoding="utf-8"))
    return "\n".join(parts)


def wanted_characters(extra_text: str = "") -> set[str]:
    """Every character the label subset should keep: tiles, labels, names, symbols, GB2312,
    Big5's common set, Hangul and any CJK character found in ``extra_text`` (RULES.md and
    the source when building)."""
    chars = (
        set(TILE_CHARS) | set(LABEL_CHARS) | set(NAME_CHARS) | set(COMMON_CHARS) | set(SYMBOL_CHARS)
    )
    chars |= set(RARE_NAME_CHARS) | gb2312_characters() | big5_common_characters()
    chars.update(chr(c) for c in range(HANGUL_SYLLABLES[0], HANGUL_SYLLABLES[1] + 1))
    for lo, hi in NAME_RANGES:
        chars.update(chr(c) for c in range(lo, hi + 1))
    chars.update(c for c in extra_text if "\u3400" <= c <= "\u9fff")
    return chars
