/**
 * HTML/CSS/SVG designs of the demo covers, banners, partner logos and the no-image placeholder,
 * rasterised by images.ts in Chromium (so the committed files need no fonts at run time).
 */
// Single quotes: the value sits inside style="…" attributes.
const FONT = `'Noto Sans CJK SC', 'Noto Sans SC', sans-serif`;

export interface Design {
  file: string;
  width: number;
  height: number;
  html: string;
  /** Keep a transparent background (logos with rounded corners). */
  transparent?: boolean;
}

const PALETTES: [string, string, string][] = [
  ["#1a0533", "#7b1fa2", "#ff4081"],
  ["#04151f", "#0f4c75", "#3be8ff"],
  ["#1b0000", "#b71c1c", "#ffb300"],
  ["#001a0f", "#00695c", "#69f0ae"],
  ["#0d0d0d", "#37474f", "#ffd740"],
  ["#12002a", "#4527a0", "#ff6e40"],
  ["#1f0a00", "#e65100", "#ffe082"],
  ["#000c24", "#1a237e", "#e040fb"],
  ["#101010", "#880e4f", "#80deea"],
  ["#071a00", "#33691e", "#ffee58"],
];

const LABELS = [
  ["串烧", "NONSTOP MIX"], ["慢摇", "SLOW SHAKE"], ["迪高", "DISCO"], ["中文Remix", "CHINESE REMIX"],
  ["电音", "ELECTRO HOUSE"], ["越南鼓", "VINAHOUSE"], ["车载DJ", "CAR MIX"], ["Club", "CLUB SESSION"],
  ["喊麦", "MC MIX"], ["FunkyHouse", "FUNKY"], ["外文DISCO", "DISCO CLASSICS"], ["E.D.M", "FESTIVAL"],
  ["酒吧潮歌", "BAR HITS"], ["新弹跳", "JUMPSTYLE"], ["中文慢歌", "LOVE SONGS"], ["Mashup", "MEGAMIX"],
  ["夜店", "NIGHT CLUB"], ["Hard", "HARDSTYLE"], ["交谊舞曲", "DANCE HALL"], ["连续串", "NON-STOP"],
];

/** Decorative motif for cover i: vinyl, equaliser, waveform, rings, sun grid, stripes, bokeh. */
function motif(i: number, [, mid, hot]: [string, string, string]): string {
  const svg = (body: string) =>
    `<svg width="300" height="300" viewBox="0 0 300 300" style="position:absolute;inset:0">${body}</svg>`;
  switch (i % 7) {
    case 0: // vinyl record
      return svg(
        `<circle cx="205" cy="150" r="120" fill="#0b0b0b"/>` +
          Array.from({ length: 9 }, (_, k) => `<circle cx="205" cy="150" r="${112 - k * 9}" fill="none" stroke="#2a2a2a" stroke-width="1.2"/>`).join("") +
          `<circle cx="205" cy="150" r="38" fill="${hot}"/><circle cx="205" cy="150" r="5" fill="#0b0b0b"/>` +
          `<path d="M205 30 A120 120 0 0 1 318 110" stroke="#ffffff33" stroke-width="6" fill="none"/>`,
      );
    case 1: // equaliser bars
      return svg(
        Array.from({ length: 14 }, (_, k) => {
          const h = 40 + Math.abs(Math.sin(k * 1.7 + i)) * 150;
          return `<rect x="${14 + k * 20}" y="${300 - h}" width="14" height="${h}" rx="3" fill="${k % 3 ? hot : "#ffffff"}" opacity="${0.55 + (k % 4) * 0.1}"/>`;
        }).join(""),
      );
    case 2: { // waveform
      const pts = Array.from({ length: 61 }, (_, k) => {
        const x = k * 5;
        const a = Math.sin(k * 0.9 + i) * Math.sin(k * 0.17) * 70;
        return `M${x} ${150 - Math.abs(a)} L${x} ${150 + Math.abs(a)}`;
      }).join(" ");
      return svg(`<path d="${pts}" stroke="${hot}" stroke-width="3" stroke-linecap="round"/>`);
    }
    case 3: // concentric rings
      return svg(
        Array.from({ length: 7 }, (_, k) => `<circle cx="150" cy="150" r="${25 + k * 22}" fill="none" stroke="${k % 2 ? hot : "#ffffff"}" stroke-width="${6 - k * 0.6}" opacity="${1 - k * 0.12}"/>`).join(""),
      );
    case 4: // synthwave sun and grid
      return svg(
        `<defs><linearGradient id="s${i}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${hot}"/><stop offset="1" stop-color="${mid}"/></linearGradient></defs>` +
          `<circle cx="150" cy="150" r="80" fill="url(#s${i})"/>` +
          Array.from({ length: 5 }, (_, k) => `<rect x="60" y="${170 + k * 13}" width="180" height="${3 + k}" fill="#00000088"/>`).join("") +
          Array.from({ length: 9 }, (_, k) => `<line x1="${150 + (k - 4) * 20}" y1="230" x2="${150 + (k - 4) * 90}" y2="300" stroke="${hot}" stroke-width="1.5"/>`).join("") +
          Array.from({ length: 4 }, (_, k) => `<line x1="0" y1="${232 + k * k * 6}" x2="300" y2="${232 + k * k * 6}" stroke="${hot}" stroke-width="1.5"/>`).join(""),
      );
    case 5: // diagonal light stripes
      return svg(
        Array.from({ length: 8 }, (_, k) => `<rect x="${-200 + k * 70}" y="-50" width="${14 + (k % 3) * 10}" height="500" fill="${k % 2 ? hot : "#ffffff"}" opacity="${0.15 + (k % 4) * 0.12}" transform="rotate(28 150 150)"/>`).join(""),
      );
    default: // bokeh lights
      return svg(
        Array.from({ length: 16 }, (_, k) => {
          const x = (k * 73 + i * 31) % 300;
          const y = (k * 127 + i * 17) % 300;
          return `<circle cx="${x}" cy="${y}" r="${12 + ((k * 7) % 30)}" fill="${k % 2 ? hot : "#ffffff"}" opacity="${0.12 + (k % 5) * 0.07}"/>`;
        }).join(""),
      );
  }
}

export function coverDesigns(count: number): Design[] {
  return Array.from({ length: count }, (_, i) => {
    const pal = PALETTES[i % PALETTES.length];
    const [zh, en] = LABELS[i % LABELS.length];
    const angle = (i * 47) % 360;
    const textAt = i % 7 === 1 ? "top:22px" : "bottom:22px";
    return {
      file: `covers/cover-${String(i + 1).padStart(2, "0")}.webp`,
      width: 300,
      height: 300,
      html: `<div style="position:relative;width:300px;height:300px;overflow:hidden;background:linear-gradient(${angle}deg,${pal[0]},${pal[1]} 65%,${pal[2]}99) ${pal[0]}">
        ${motif(i, pal)}
        <div style="position:absolute;left:0;right:0;${i % 7 === 1 ? "top:0" : "bottom:0"};height:130px;background:linear-gradient(${i % 7 === 1 ? "#000a" : "transparent"},${i % 7 === 1 ? "transparent" : "#000a"})"></div>
        <div style="position:absolute;left:20px;right:20px;${textAt};font-family:${FONT};color:#fff;text-shadow:0 2px 8px #0009">
          <div style="font-size:${zh.length > 5 ? 34 : 44}px;font-weight:900;letter-spacing:1px;line-height:1.1">${zh}</div>
          <div style="font-size:13px;font-weight:700;letter-spacing:4px;opacity:.85;margin-top:6px">${en} · VOL.${String(i + 1).padStart(2, "0")}</div>
        </div>
      </div>`,
    };
  });
}

const BANNERS = [
  { title: "聚合全网DJ舞曲", sub: "DJUU · 172Mix · 清风DJ 一站搜索", pal: PALETTES[0] },
  { title: "60分钟无缝串烧", sub: "车载 · 夜店 · 慢摇 随点随听 拖动秒开", pal: PALETTES[1] },
  { title: "本周热门排行", sub: "串烧榜 · 单曲榜 每日更新", pal: PALETTES[2] },
];

export function bannerDesigns(): Design[] {
  return BANNERS.map((b, i) => {
    const [dark, mid, hot] = b.pal;
    const bars = Array.from({ length: 40 }, (_, k) => {
      const h = 30 + Math.abs(Math.sin(k * 0.6 + i) * Math.cos(k * 0.23)) * 250;
      return `<rect x="${640 + k * 14}" y="${400 - h}" width="9" height="${h}" rx="2" fill="${k % 4 ? hot : "#fff"}" opacity="${0.35 + (k % 5) * 0.12}"/>`;
    }).join("");
    return {
      file: `banners/banner-${i + 1}.webp`,
      width: 1200,
      height: 400,
      html: `<div style="position:relative;width:1200px;height:400px;overflow:hidden;background:radial-gradient(circle at 80% 30%,${hot}55,transparent 45%),linear-gradient(110deg,${dark} 30%,${mid})">
        <svg width="1200" height="400" style="position:absolute;inset:0">${bars}
          <circle cx="980" cy="170" r="120" fill="none" stroke="#ffffff55" stroke-width="3"/>
          <circle cx="980" cy="170" r="80" fill="none" stroke="${hot}" stroke-width="6"/></svg>
        <div style="position:absolute;left:80px;top:110px;font-family:${FONT};color:#fff">
          <div style="font-size:72px;font-weight:900;letter-spacing:4px;text-shadow:0 4px 20px #000a">${b.title}</div>
          <div style="font-size:28px;margin-top:18px;opacity:.9;letter-spacing:2px">${b.sub}</div>
          <div style="display:inline-block;margin-top:30px;padding:10px 28px;border-radius:24px;background:${hot};color:${dark};font-size:22px;font-weight:700">立即收听 ▶</div>
        </div>
      </div>`,
    };
  });
}

const LOGOS = [
  { code: "djuu", name: "DJUU", sub: "djuu.com", bg: "linear-gradient(135deg,#ff512f,#dd2476)" },
  { code: "172minx", name: "172Mix", sub: "172mix.com", bg: "linear-gradient(135deg,#1d2b64,#1cb5e0)" },
  { code: "vvvdj", name: "清风DJ", sub: "vvvdj.com", bg: "linear-gradient(135deg,#11998e,#38ef7d)" },
  { code: "local", name: "DJ搜索引擎网", sub: "站内曲库", bg: "linear-gradient(135deg,#6a11cb,#2575fc)" },
];

export function logoDesigns(): Design[] {
  return LOGOS.map((l) => ({
    file: `logos/${l.code}.webp`,
    width: 240,
    height: 80,
    transparent: true,
    html: `<div style="width:240px;height:80px;border-radius:14px;background:${l.bg};display:flex;align-items:center;gap:12px;padding:0 16px;box-sizing:border-box;font-family:${FONT};color:#fff">
      <svg width="44" height="44" viewBox="0 0 44 44"><circle cx="22" cy="22" r="20" fill="#0006"/><circle cx="22" cy="22" r="13" fill="none" stroke="#fff" stroke-width="2" opacity=".7"/><circle cx="22" cy="22" r="5" fill="#fff"/></svg>
      <div><div style="font-size:${l.name.length > 6 ? 22 : 28}px;font-weight:900;line-height:1.1">${l.name}</div>
      <div style="font-size:13px;opacity:.85;letter-spacing:1px">${l.sub}</div></div>
    </div>`,
  }));
}

export const noImageDesign: Design = {
  file: "noimage.png",
  width: 300,
  height: 300,
  html: `<div style="width:300px;height:300px;background:#f2f3f5;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:14px;font-family:${FONT}">
    <svg width="96" height="96" viewBox="0 0 24 24" fill="#c4c8cf"><path d="M12 3v10.55A4 4 0 1 0 14 17V7h4V3h-6z"/></svg>
    <div style="font-size:20px;color:#a0a6b0;letter-spacing:2px">暂无图片</div>
  </div>`,
};
