import { Result } from "antd";
import { AdminPage } from "../../components/admin/AdminPage";
import { SuiteFormPage } from "../../components/admin/suite/SuiteFormPage";
import { pageMeta } from "../../lib/site";
import type { Route } from "./+types/edit";

export const meta = () => pageMeta("编辑套曲");

export default function EditSuite({ params }: Route.ComponentProps) {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) {
    return (
      <AdminPage title="编辑套曲">
        <Result status="warning" title="套曲不存在" />
      </AdminPage>
    );
  }
  return <SuiteFormPage id={id} />;
}
