import { describe, expect, it } from "vitest";
import { attachment, csvCell, csvLine } from "./csv.js";

describe("CSV cells", () => {
  it("quote what holds a quote, comma or line break, doubling quotes", () => {
    expect(csvCell("慢摇串烧")).toBe("慢摇串烧");
    expect(csvCell('他说"好"')).toBe('"他说""好"""');
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("第一行\n第二行")).toBe('"第一行\n第二行"');
    expect(csvCell("a\r\nb")).toBe('"a\r\nb"');
  });

  it("neutralise formulas: text starting with = + - @ tab or CR gets a leading '", () => {
    expect(csvCell("=HYPERLINK(\"http://x\")")).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("a=1")).toBe("a=1");
    // Numbers are numbers, not text a spreadsheet could run.
    expect(csvCell(-5)).toBe("-5");
  });

  it("write nothing for null, JSON for objects, 是/否 for booleans", () => {
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
    expect(csvCell(true)).toBe("是");
    expect(csvLine([1, "x,y", null])).toBe('1,"x,y",\r\n');
  });

  it("name the download in UTF-8 (RFC 5987) beside an ASCII name", () => {
    expect(attachment("套曲-20261127.csv", "suites-20261127.csv")).toBe(
      `attachment; filename="suites-20261127.csv"; filename*=UTF-8''%E5%A5%97%E6%9B%B2-20261127.csv`,
    );
  });
});
