import { RECORDED_CALL_TEXT, recordedPaths } from "@contracts/recorded-texts";
import { PLUGIN_REPLACEABLE_BUILTINS } from "@contracts/plugin-admin-texts";
import { Alert, App, Button, Drawer, Select, Space, Table, Tag, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useCallback, useEffect, useRef, useState } from "react";
import { adminCall, storedAdminToken } from "../../../lib/admin-api";
import { DeleteConfirm } from "../DeleteConfirm";
import { errorText, unwrap } from "../plugins/plugin-types";
import { mono, sizeText, type RecordedAnswer, type RecordedList, type Replay } from "./recorded-types";
import { ReplayTable } from "./ReplayTable";

/** Downloads a sample's bytes as they came (an attachment; the admin token as a bearer token). */
async function download(row: RecordedAnswer) {
  const res = await fetch(recordedPaths.body(row.id), { headers: { Authorization: `Bearer ${storedAdminToken() ?? ""}` } });
  if (!res.ok) throw new Error("下载失败，请稍后重试");
  const href = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement("a"), { href, download: `${row.source}-${row.id}.bin` });
  a.click();
  URL.revokeObjectURL(href);
}

/**
 * 样本 (issue 22): the answers kept of a source (a canary's drift, a try saved): list, download,
 * delete, and replay them all through what serves the source now (its plugin or built-in parser).
 */
export function RecordedDrawer({ open, source, sources, onClose }: { open: boolean; source: string | null; sources: { value: string; label: string }[]; onClose: () => void }) {
  const { message } = App.useApp();
  /** The source picked in the drawer; until one is picked, the one it was opened for. */
  const [picked, setPicked] = useState<string | null>(null);
  const chosen = picked ?? source ?? PLUGIN_REPLACEABLE_BUILTINS[0]!.code;
  const [list, setList] = useState<RecordedList | null>(null);
  const [replay, setReplay] = useState<Replay | null>(null);
  const [loading, setLoading] = useState(false);
  /** The source of the latest list asked for: an older answer arriving after it is dropped. */
  const asked = useRef<string | null>(null);

  useEffect(() => {
    if (open) return;
    setPicked(null);
    setList(null);
  }, [open]);

  const load = useCallback(async () => {
    asked.current = chosen;
    setLoading(true);
    setReplay(null);
    try {
      const answer = await unwrap(adminCall<RecordedList>("GET", recordedPaths.list(chosen)), "加载样本失败");
      if (asked.current === chosen) setList(answer);
    } catch (err) {
      if (asked.current === chosen) void message.error(errorText(err, "加载样本失败"));
    } finally {
      if (asked.current === chosen) setLoading(false);
    }
  }, [chosen, message]);

  useEffect(() => {
    if (open) void load();
  }, [open, load]);

  async function runReplay() {
    setLoading(true);
    try {
      setReplay(await unwrap(adminCall<Replay>("POST", recordedPaths.replaySource(chosen)), "回放失败"));
    } catch (err) {
      void message.error(errorText(err, "回放失败"));
    } finally {
      setLoading(false);
    }
  }

  async function remove(row: RecordedAnswer) {
    try {
      await unwrap(adminCall("DELETE", recordedPaths.answer(row.id)));
      void message.success("已删除样本");
      await load();
    } catch (err) {
      void message.error(errorText(err));
    }
  }

  const builtins = PLUGIN_REPLACEABLE_BUILTINS.map((b) => ({ value: b.code, label: `${b.name} (${b.code})` }));
  const counted = new Map((list?.sources ?? []).map((s) => [s.source, s]));
  const options = [...builtins, ...sources, ...[...counted.keys()].map((s) => ({ value: s, label: s }))]
    .filter((o, i, all) => all.findIndex((x) => x.value === o.value) === i)
    .map((o) => ({ ...o, label: counted.has(o.value) ? `${o.label} · ${counted.get(o.value)!.count} 个` : o.label }));
  const columns: ColumnsType<RecordedAnswer> = [
    { title: "时间", key: "at", width: 160, render: (_v, r) => new Date(r.at).toLocaleString("zh-CN") },
    {
      title: "地址",
      key: "url",
      render: (_v, r) => (
        <Space direction="vertical" size={0}>
          <Space size={4}>
            <Tag>{RECORDED_CALL_TEXT[r.call?.method ?? "search"] ?? r.call?.method}</Tag>
            <Tag color={r.status < 400 ? "default" : "red"}>HTTP {r.status}</Tag>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {sizeText(r.bytes)} · {r.reason}
            </Typography.Text>
          </Space>
          <Typography.Text style={{ ...mono, wordBreak: "break-all" }}>{r.url}</Typography.Text>
          <Typography.Text type="secondary" style={{ ...mono, fontSize: 11 }}>
            sha256 {r.sha256.slice(0, 16)}…
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: "操作",
      key: "actions",
      width: 130,
      render: (_v, r) => (
        <Space size={4}>
          <Button size="small" type="link" onClick={() => void download(r).catch((err: unknown) => message.error(errorText(err)))}>
            下载
          </Button>
          <DeleteConfirm link title="删除这个样本？" onConfirm={() => void remove(r)} />
        </Space>
      ),
    },
  ];
  const used = counted.get(chosen);
  const builtin = replay?.rows[0]?.new.version === "内置解析器";
  const previous = replay?.rows.find((r) => r.old)?.old?.version ?? null;
  return (
    <Drawer title="样本（记录的站点响应）" open={open} onClose={onClose} size={1100} destroyOnHidden data-testid="recorded-drawer">
      <Space wrap style={{ marginBottom: 12 }}>
        <Select style={{ width: 260 }} value={chosen} options={options} onChange={setPicked} aria-label="选择来源" />
        <Button onClick={() => void load()}>刷新</Button>
        <Button type="primary" disabled={!list?.answers.length} loading={loading} onClick={() => void runReplay()}>
          回放全部样本
        </Button>
        {list ? (
          <Typography.Text type="secondary">
            {used?.count ?? 0}/{list.limits.count} 个，{sizeText(used?.bytes ?? 0)}/{sizeText(list.limits.bytes)}；超出时删除最旧的
          </Typography.Text>
        ) : null}
      </Space>
      <Table<RecordedAnswer> rowKey="id" size="small" columns={columns} dataSource={list?.answers ?? []} loading={loading} pagination={false} locale={{ emptyText: "还没有样本：在插件试用中保存为样本，或由站点巡检发现变化时自动保存" }} data-testid="recorded-table" />
      {replay ? (
        <div style={{ marginTop: 16 }} data-testid="recorded-replay">
          <Alert type="info" showIcon style={{ marginBottom: 8 }} message={`用当前为 ${replay.source} 服务的${builtin ? "内置解析器" : "插件版本"}回放了 ${replay.rows.length} 个样本`} />
          <ReplayTable rows={replay.rows} oldLabel={previous ? `上一版本 v${previous}` : null} newLabel={builtin ? "内置解析器" : `当前版本 v${replay.rows[0]?.new.version ?? ""}`} />
        </div>
      ) : null}
    </Drawer>
  );
}
