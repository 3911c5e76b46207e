import { AdminPage } from "../../components/admin/AdminPage";
import { pageMeta } from "../../lib/site";

export const meta = () => pageMeta("区块管理");

export default function BlockManager() {
  return <AdminPage title="区块管理" />;
}
