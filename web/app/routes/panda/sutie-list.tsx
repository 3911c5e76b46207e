import { AdminPage } from "../../components/admin/AdminPage";
import { pageMeta } from "../../lib/site";

export const meta = () => pageMeta("套曲列表");

export default function SuiteList() {
  return <AdminPage title="套曲列表" />;
}
