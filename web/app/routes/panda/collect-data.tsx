import { AdminPage } from "../../components/admin/AdminPage";
import { pageMeta } from "../../lib/site";

export const meta = () => pageMeta("采集数据");

export default function CollectData() {
  return <AdminPage title="采集数据" />;
}
