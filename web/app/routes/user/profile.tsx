import { PageHeading } from "../../components/layout/PageHeading";
import { pageMeta } from "../../lib/site";

export const meta = () => pageMeta("个人资料");

export default function Profile() {
  return <PageHeading title="个人资料" />;
}
