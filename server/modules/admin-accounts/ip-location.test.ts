import { describe, expect, it } from "vitest";
import { ipLocation, isPrivateAddress } from "./ip-location.js";

describe("ipLocation (ip2region's offline data)", () => {
  it("names public IPv4 and IPv6 addresses", () => {
    expect(ipLocation("120.24.78.68")).toBe("中国 广东省 深圳市 阿里云");
    expect(ipLocation("114.114.114.114")).toBe("中国 江苏省 南京市");
    expect(ipLocation("::ffff:202.96.128.86")).toBe("中国 广东省 广州市 电信");
    expect(ipLocation("240e:47d:c20:1627:30a3:ba0d:a5e6:ec19")).toContain("广东省");
  });

  it("private, loopback and link-local addresses are 内网IP; what is no address is ''", () => {
    for (const ip of ["127.0.0.1", "::1", "::ffff:127.0.0.1", "10.1.2.3", "172.20.0.5", "192.168.1.1", "169.254.1.1", "fd00::1", "fe80::1"]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
      expect(ipLocation(ip), ip).toBe("内网IP");
    }
    expect(isPrivateAddress("172.32.0.1")).toBe(false);
    expect(ipLocation("not-an-ip")).toBe("");
    expect(ipLocation("")).toBe("");
  });
});
