import { suiteFormMessages as m, type SuiteForm, type SuiteFormData, type SuiteFormOptions } from "@contracts/suite-form";
import { djListProblem, sameDjList } from "@contracts/djlist";
import { suitePath } from "@contracts/paths";
import { DEFAULT_ARTIST } from "@contracts/suite";
import type { AppDatabase } from "../../db/types.js";
import { badRequest, notFound } from "../../errors.js";
import type { AuditActor, AuditService } from "../audit/service.js";
import type { CatalogueWriteService } from "../catalogue-write/service.js";
import type { ItemPatch } from "../catalogue-write/types.js";
import { suiteAdminRepo } from "./repo.js";

/**
 * Adding and editing suites in the back office (issue 12, ADR 0029). Every save goes through
 * the write service (derived search text and track count, a change event that drops the public
 * answers) with its audit row in the same transaction: a refused save changes nothing.
 */
export function suiteAdminService(db: AppDatabase, { writes, audit }: { writes: CatalogueWriteService; audit: AuditService }) {
  const repo = suiteAdminRepo(db);

  /** The form's fields as item columns. */
  const columns = (form: SuiteForm): ItemPatch => ({
    title: form.title,
    categoryId: form.categoryId,
    artist: form.artist ?? DEFAULT_ARTIST,
    cover: form.cover,
    playUrl: form.playUrl,
    playtype: form.playtype,
    kind: form.kind,
    durationSec: form.durationSec,
    sizeBytes: form.sizeBytes,
    sourceSite: form.sourceSite,
    vipdown: form.vipdown,
    price: form.price,
    weburl: form.weburl,
    webPassword: form.webPassword,
    djlist: form.djlist,
    status: form.status,
    recommended: form.recommended,
  });

  /** What the schema cannot know: the category and the source site exist. */
  async function checkReferences(tx: Parameters<typeof suiteAdminRepo>[0], form: SuiteForm) {
    const r = suiteAdminRepo(tx);
    if (!(await r.categoryExists(form.categoryId))) throw badRequest(m.categoryMissing);
    if (!(await r.siteExists(form.sourceSite))) throw badRequest(m.siteMissing);
  }

  return {
    async options(): Promise<SuiteFormOptions> {
      const [categories, sites] = await Promise.all([repo.categories(), repo.sites()]);
      return { categories, sites };
    },

    async get(id: number): Promise<SuiteFormData> {
      const data = await repo.formData(id);
      if (!data) throw notFound(m.missing);
      return data;
    },

    async create(actor: AuditActor, form: SuiteForm): Promise<{ id: number; url: string }> {
      const id = await writes.transaction(async (w, tx) => {
        await checkReferences(tx, form);
        const [created] = await w.createItems([{ ...columns(form), title: form.title, playUrl: form.playUrl, kind: form.kind, sourceSite: form.sourceSite }]);
        const after = await suiteAdminRepo(tx).formData(created);
        await audit.record(actor, { action: "suite.create", targetType: "suite", targetId: created, before: null, after }, tx);
        return created;
      });
      return { id, url: suitePath(id) };
    },

    async update(actor: AuditActor, id: number, form: SuiteForm): Promise<{ id: number; url: string }> {
      await writes.transaction(async (w, tx) => {
        const r = suiteAdminRepo(tx);
        const before = await r.formData(id);
        if (!before) throw notFound(m.missing);
        if (!sameDjList(form.djlist, before.djlist)) {
          const problem = djListProblem(form.djlist, form.durationSec);
          if (problem) throw badRequest(problem.message);
        }
        await checkReferences(tx, form);
        await w.updateItem(id, columns(form));
        const after = await r.formData(id);
        await audit.record(actor, { action: "suite.update", targetType: "suite", targetId: id, before, after }, tx);
      });
      return { id, url: suitePath(id) };
    },
  };
}

export type SuiteAdminService = ReturnType<typeof suiteAdminService>;
