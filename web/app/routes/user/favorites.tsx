import { PageHeading } from "../../components/layout/PageHeading";
import { pageMeta } from "../../lib/site";

export const meta = () => pageMeta("我的收藏");

export default function Favorites() {
  return <PageHeading title="我的收藏" />;
}
