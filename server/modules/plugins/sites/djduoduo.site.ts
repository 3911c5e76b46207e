import { createCipheriv, createDecipheriv } from "node:crypto";
import { type SiteRequest } from "./harness.js";

/**
 * DJ多多's app API: requests carry AES-128-CBC-encrypted JSON (`data`, `extra`), answers are JSON or
 * AES-encrypted JSON under a second key, and a song's `Path` is encrypted too. The fixture decrypts
 * what the plugin sends with Node's crypto, so a wrong key, IV or field fails here.
 * Shared by its test and the recorded corpus (issue 22).
 */

export const REQUEST = { key: Buffer.from("e82a4a775c295bbbe33f66828a368b90", "hex"), iv: Buffer.from("8477d5a085c1d50d8a74811ec3e811e4", "hex") };
export const ANSWER = { key: Buffer.from("e4fd094dfcae98f352ddf81ee760d891", "hex"), iv: Buffer.from("932ea49cfff68382f0516ccc63a52123", "hex") };

export const seal = (text: string) => {
  const c = createCipheriv("aes-128-cbc", ANSWER.key, ANSWER.iv);
  return Buffer.concat([c.update(text, "utf8"), c.final()]).toString("base64");
};
export const open = (base64: string) => {
  const d = createDecipheriv("aes-128-cbc", REQUEST.key, REQUEST.iv);
  return JSON.parse(Buffer.concat([d.update(Buffer.from(base64, "base64")), d.final()]).toString("utf8")) as Record<string, unknown>;
};

export const song = (id: number, name: string, user = "DJ小鱼儿") => ({ Id: id, Name: name, User: user, Cover: `${id}.jpg`, Duration: 232, Path: seal(`${id}_a1b2.aac`), Size: 2239766, Bitrate: 77, MaxQ: 3 });

export const calls: { act: string; data: Record<string, unknown>; extra: Record<string, unknown> }[] = [];

export function route(req: SiteRequest) {
  const act = req.query.get("act") ?? "";
  const data = open(req.query.get("data") ?? "");
  const extra = open(req.query.get("extra") ?? "");
  calls.push({ act, data, extra });
  if (req.headers["user-agent"] !== "okhttp/4.9.2" || extra.VerCode !== 5568) return { body: JSON.stringify({ RetCode: 403, Message: "Access deny" }) };
  if (req.path === "/v4/search.php" && act === "sch" && data.Query === "社会摇" && data.From === "Search") {
    const page = data.PageNo as number;
    const list = page === 0 ? Array.from({ length: 30 }, (_, i) => song(1234500 + i, `社会摇 ${i}`)) : [song(1234599, "社会摇 最后一首", "")];
    // The search answers encrypted as a whole, like the app's.
    return { headers: { "content-type": "text/plain" }, body: seal(JSON.stringify({ RetCode: 200, List: list, HasMore: page === 0 ? 1 : 0 })) };
  }
  if (req.path === "/v4/getlist.php" && act === "rank_detail" && data.Id === 107) {
    const list = data.PageNo === 0 ? Array.from({ length: 30 }, (_, i) => song(700 + i, `中文舞曲 ${i}`)) : [song(7777, "中文舞曲 末页")];
    return { headers: { "content-type": "application/json" }, body: JSON.stringify({ RetCode: 200, List: list }) };
  }
  if (req.path === "/v4/getlist.php" && act === "detail" && data.Id === 1234501) {
    return { headers: { "content-type": "application/json" }, body: JSON.stringify({ RetCode: 200, List: [song(1234501, "社会摇 1")] }) };
  }
  return { body: JSON.stringify({ RetCode: 401, Message: "参数错误" }) };
}
