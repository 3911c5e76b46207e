import { SuiteFormPage } from "../../components/admin/suite/SuiteFormPage";
import { pageMeta } from "../../lib/site";

export const meta = () => pageMeta("添加套曲");

export default function AddSuite() {
  return <SuiteFormPage />;
}
