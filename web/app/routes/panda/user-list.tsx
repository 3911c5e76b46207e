import { AdminPage } from "../../components/admin/AdminPage";
import { pageMeta } from "../../lib/site";

export const meta = () => pageMeta("用户列表");

export default function UserList() {
  return <AdminPage title="用户列表" />;
}
