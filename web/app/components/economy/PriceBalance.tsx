import { useSession } from "../../session/store";

/** Beside a price: the signed-in member's balance (pages are the same for everyone; it comes after hydration). */
export function PriceBalance({ price, vipdown }: { price: number; vipdown: "0" | "1" }) {
  const coins = useSession((s) => s.user?.coins);
  if (coins === undefined || vipdown === "1" || price <= 0) return null;
  return <span data-price-balance>{coins >= price ? `余额${coins}币` : `余额${coins}币，每日签到可得金币`}</span>;
}
