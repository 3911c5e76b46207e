/**
 * Name pools for the demo catalogue, in the conventions of Chinese DJ sites
 * (see ../shared/SOURCES.md): real artist and song names, DJ stage names, city names.
 */

export interface Song {
  artist: string;
  song: string;
  /** Sung in Cantonese: titles get the [粤语] tag. */
  cantonese?: boolean;
  foreign?: boolean;
}

const zh = (artist: string, ...songs: string[]): Song[] => songs.map((song) => ({ artist, song }));
const yue = (artist: string, ...songs: string[]): Song[] => songs.map((song) => ({ artist, song, cantonese: true }));
const en = (artist: string, ...songs: string[]): Song[] => songs.map((song) => ({ artist, song, foreign: true }));

export const SONGS: Song[] = [
  // First on purpose: search tests look for 周杰伦 and 夜曲.
  ...zh("周杰伦", "夜曲", "晴天", "稻香", "七里香", "告白气球", "发如雪", "青花瓷", "以父之名"),
  ...zh("林俊杰", "江南", "醉赤壁", "她说", "修炼爱情", "不为谁而作的歌"),
  ...zh("邓紫棋", "光年之外", "泡沫", "倒数", "句号"),
  ...zh("薛之谦", "演员", "认真的雪", "丑八怪", "天外来物"),
  ...zh("李荣浩", "李白", "年少有为", "麻雀"),
  ...zh("毛不易", "消愁", "像我这样的人"),
  ...zh("张韶涵", "隐形的翅膀", "欧若拉"),
  ...zh("蔡依林", "日不落", "舞娘", "说爱你"),
  ...zh("五月天", "倔强", "突然好想你", "知足"),
  ...zh("梁静茹", "勇气", "宁夏"),
  ...zh("许嵩", "断桥残雪", "有何不可"),
  ...zh("周深", "大鱼", "光亮"),
  ...zh("任贤齐", "心太软", "伤心太平洋"),
  ...zh("刀郎", "2002年的第一场雪", "罗刹海市"),
  ...zh("海来阿木", "点歌的人", "不过人间"),
  ...zh("庄心妍", "一万个舍不得", "以后的以后"),
  ...zh("汪苏泷", "有点甜", "不分手的恋爱"),
  ...zh("王力宏", "大城小爱", "唯一"),
  ...zh("张学友", "吻别", "一路上有你"),
  ...zh("刘德华", "忘情水", "冰雨"),
  ...zh("王菲", "红豆", "传奇"),
  ...zh("云朵", "我的楼兰", "情人"),
  ...zh("半吨兄弟", "爱情错觉", "后来你好吗"),
  ...yue("陈奕迅", "富士山下", "浮夸", "K歌之王"),
  ...yue("Beyond", "海阔天空", "光辉岁月", "真的爱你"),
  ...yue("谭咏麟", "讲不出再见", "爱在深秋"),
  ...yue("黎明", "那有一天不想你", "情深说话未曾讲"),
  ...yue("郭富城", "对你爱不完", "我是不是该安静地走开"),
  ...yue("张敬轩", "断点", "春秋"),
  ...yue("容祖儿", "挥着翅膀的女孩", "小小"),
  ...yue("卫兰", "就算世界无童话", "大哥"),
  ...en("Alan Walker", "Faded", "Alone", "Darkside"),
  ...en("Avicii", "Wake Me Up", "The Nights", "Levels"),
  ...en("Martin Garrix", "Animals", "In The Name Of Love"),
  ...en("The Chainsmokers", "Closer", "Something Just Like This"),
  ...en("Tones And I", "Dance Monkey"),
  ...en("Dua Lipa", "Levitating", "Don't Start Now"),
  ...en("Pitbull", "Timber", "Give Me Everything"),
  ...en("Kesha", "TiK ToK"),
  ...en("Ed Sheeran", "Shape Of You"),
  ...en("Calvin Harris", "Summer", "This Is What You Came For"),
];

export const DJS = [
  "DJ阿远", "DJ小鱼儿", "DJ何鹏", "DJ阿福", "DJ大鹏", "DJ伟伟", "DJ沈念", "DJ Candy", "DJ小M",
  "DJ阿华", "DJ光头", "DJ豪大大", "DJ阿智", "DJ小强", "DJ阿铭", "DJ银狐", "DJ文少", "DJ细霖",
  "DJ阿涛", "DJ小可", "DJ Kenny", "DJ阿杰", "DJ默涵", "DJ花仔", "DJ阿帆", "DJ Mike", "DJ小朋",
];

export const PLACES = [
  "广州", "深圳", "东莞", "佛山", "长沙", "南宁", "柳州", "福州", "厦门", "温州", "成都", "重庆",
  "武汉", "西安", "昆明", "贵阳", "南昌", "杭州", "上海", "北京", "湛江", "海口", "汕头", "揭阳",
];

export const LANGUAGES = ["全中文国粤语", "全中文国语", "全中文粤语", "全英文", "中英文", "越南语"];

/** Genres used in suite titles, `…{genre}音乐…串烧`. */
export const MIX_GENRES = ["Club", "ProgHouse", "Electro", "慢摇", "FunkyHouse", "喊麦", "Disco", "弹跳", "Vinahouse"];

export const MIX_THEMES = [
  "一起摇摆节奏", "车载嗨曲", "夜店蹦迪", "抖音热播", "伤感情歌", "重低音", "醉生梦死", "跑山专用",
  "午夜狂欢", "宿醉", "经典老歌", "劲爆慢摇", "酒吧气氛", "私人订制", "网络热歌",
];

/** Remix styles used in single titles, `歌手 - 歌名(Dj名 {style} Rmx 年份)`. */
export const STYLES = [
  "Electro", "ProgHouse", "FunkyHouse", "Vinahouse", "Bounce", "Mashup", "Club", "Hardstyle",
  "BreakBeat", "Trap", "Dance", "LakHouse", "Remix", "Bootleg",
];

export const YEARS = [2021, 2022, 2023, 2024, 2025];
