import { App, Result, Skeleton } from "antd";
import { useEffect, useState } from "react";
import { adminTableMessages } from "@contracts/admin-table-texts";
import type { SuiteFormData, SuiteFormOptions } from "@contracts/suite-form";
import { adminCall } from "../../../lib/admin-api";
import { AdminPage } from "../AdminPage";
import { EMPTY_SUITE, type SuiteFormValues, toFormValues } from "./form-values";
import { SuiteForm } from "./SuiteForm";

type Loaded = { options: SuiteFormOptions; initial: SuiteFormValues } | { error: string };

/** /panda/add (no id) and /panda/edit/{id}: loads the form's choices (and the suite), then the form. */
export function SuiteFormPage({ id }: { id?: number }) {
  const { message } = App.useApp();
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    let live = true;
    setLoaded(null);
    (async () => {
      const [options, suite] = await Promise.all([
        adminCall<SuiteFormOptions>("GET", "/api/pandaadmin/suites/options"),
        id ? adminCall<SuiteFormData>("GET", `/api/pandaadmin/suites/${id}`) : null,
      ]);
      if (options.code !== 1) throw new Error(options.msg);
      if (suite && suite.code !== 1) return { error: suite.msg || adminTableMessages.loadFailed };
      return { options: options.data, initial: suite ? toFormValues(suite.data) : EMPTY_SUITE };
    })()
      .catch((err: unknown) => {
        void message.error(adminTableMessages.loadFailed);
        return { error: err instanceof Error && /[\u4e00-\u9fff]/u.test(err.message) ? err.message : adminTableMessages.loadFailed };
      })
      .then((result) => live && setLoaded(result));
    return () => {
      live = false;
    };
  }, [id, message]);

  return (
    <AdminPage title={id ? "编辑套曲" : "添加套曲"}>
      {!loaded ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : "error" in loaded ? (
        <Result status="warning" title={loaded.error} />
      ) : (
        <SuiteForm key={id ?? "new"} id={id} initial={loaded.initial} options={loaded.options} />
      )}
    </AdminPage>
  );
}
