import { PageHeading } from "../components/layout/PageHeading";
import { pageMeta } from "../lib/site";

export const meta = () => pageMeta();

/** Home (spec section 2); the public-site issue builds search, charts and lists here. */
export default function Home() {
  return <PageHeading title="首页">搜索全网DJ串烧套曲与单曲，在线试听</PageHeading>;
}
