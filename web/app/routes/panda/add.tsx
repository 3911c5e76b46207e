import { AdminPage } from "../../components/admin/AdminPage";
import { pageMeta } from "../../lib/site";

export const meta = () => pageMeta("添加套曲");

export default function AddSuite() {
  return <AdminPage title="添加套曲" />;
}
