import { AdminPage } from "../../components/admin/AdminPage";
import { pageMeta } from "../../lib/site";

export const meta = () => pageMeta("套曲分类");

export default function SuiteCategories() {
  return <AdminPage title="套曲分类" />;
}
