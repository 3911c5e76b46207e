import { AdminPage } from "../../components/admin/AdminPage";
import { pageMeta } from "../../lib/site";
import type { Route } from "./+types/edit";

export const meta = () => pageMeta("编辑套曲");

export default function EditSuite({ params }: Route.ComponentProps) {
  return <AdminPage title="编辑套曲">编号 {params.id}</AdminPage>;
}
