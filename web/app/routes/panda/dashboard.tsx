import { AdminPage } from "../../components/admin/AdminPage";
import { pageMeta } from "../../lib/site";

export const meta = () => pageMeta("控制台");

export default function Dashboard() {
  return <AdminPage title="控制台" />;
}
