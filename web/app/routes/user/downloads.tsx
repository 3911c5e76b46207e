import { PageHeading } from "../../components/layout/PageHeading";
import { pageMeta } from "../../lib/site";

export const meta = () => pageMeta("下载记录");

export default function Downloads() {
  return <PageHeading title="下载记录" />;
}
