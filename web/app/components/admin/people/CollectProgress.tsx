import { adminPeoplePaths } from "@contracts/admin-people-texts";
import { App, Button, Card, Progress, Select, Space, Tag, Typography } from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import { adminCall } from "../../../lib/admin-api";

/** A collection job as GET /api/pandaadmin/collect/jobs answers it (contracts/collect.ts). */
interface Job {
  id: number;
  source: string;
  state: "queued" | "running" | "done" | "failed" | "cancelled";
  planSize: number;
  unitIndex: number;
  currentUnit: { name: string } | null;
  pagesDone: number;
  itemsFound: number;
  itemsNew: number;
  errors: number;
  lastError: string | null;
  finishedAt: string | null;
}

const STATE_TEXT: Record<Job["state"], [string, string]> = {
  queued: ["排队中", "default"],
  running: ["采集中", "processing"],
  done: ["已完成", "success"],
  failed: ["失败", "error"],
  cancelled: ["已取消", "warning"],
};
const POLL_MS = 1500;
const active = (j: Job) => j.state === "queued" || j.state === "running";

/**
 * 开始采集 with a source (or all in use) and the live progress of the jobs it started: polls the
 * jobs API while one is queued or running; `onFinished` when the last of them ends (new rows).
 */
export function CollectProgress({ onFinished }: { onFinished: () => void }) {
  const { message } = App.useApp();
  const [sources, setSources] = useState<{ code: string; name: string }[]>([]);
  const [source, setSource] = useState("");
  const [jobs, setJobs] = useState<Job[]>([]);
  const [starting, setStarting] = useState(false);
  const watching = useRef(false);

  useEffect(() => {
    void adminCall<{ sources: { code: string; name: string }[] }>("GET", adminPeoplePaths.sourcesHealth)
      .then((res) => res.code === 1 && setSources(res.data.sources))
      .catch(() => undefined);
  }, []);

  const poll = useCallback(async () => {
    try {
      const res = await adminCall<{ jobs: Job[] }>("GET", adminPeoplePaths.collectJobs);
      if (res.code !== 1) return;
      // The latest job of each source: what is running now, or how it ended.
      const latest = new Map<string, Job>();
      for (const j of res.data.jobs) if (!latest.has(j.source) || latest.get(j.source)!.id < j.id) latest.set(j.source, j);
      const shown = [...latest.values()].filter((j) => active(j) || (j.finishedAt && Date.now() - Date.parse(j.finishedAt) < 10 * 60_000));
      setJobs(shown);
      const running = shown.some(active);
      if (watching.current && !running) onFinished();
      watching.current = running;
    } catch {
      // The next tick tries again.
    }
  }, [onFinished]);

  useEffect(() => {
    void poll();
  }, [poll]);
  useEffect(() => {
    if (!jobs.some(active)) return;
    const timer = setTimeout(() => void poll(), POLL_MS);
    return () => clearTimeout(timer);
  }, [jobs, poll]);

  async function start() {
    setStarting(true);
    try {
      const res = await adminCall<{ jobs: { created: boolean; job: Job }[] }>("POST", adminPeoplePaths.collectStart, source ? { source } : {});
      if (res.code === 1) {
        const created = res.data.jobs.filter((j) => j.created).length;
        void message.success(created > 0 ? `已开始采集 ${created} 个来源` : "采集任务已在进行中");
        watching.current = true;
        await poll();
      } else void message.error(res.msg || "开始采集失败");
    } catch {
      void message.error("开始采集失败");
    } finally {
      setStarting(false);
    }
  }

  async function cancel(job: Job) {
    const res = await adminCall("POST", `${adminPeoplePaths.collectJob(job.id)}/cancel`).catch(() => null);
    if (res?.code === 1) void message.success("已取消");
    else void message.error(res?.msg || "取消失败");
    await poll();
  }

  const nameOf = (code: string) => sources.find((s) => s.code === code)?.name ?? code;
  return (
    <Card size="small" style={{ marginBottom: 16 }} data-testid="collect-progress">
      <Space wrap>
        <Select
          aria-label="采集来源"
          value={source}
          onChange={setSource}
          style={{ width: 180 }}
          options={[{ value: "", label: "全部启用的来源" }, ...sources.map((s) => ({ value: s.code, label: s.name }))]}
        />
        <Button type="primary" loading={starting} onClick={() => void start()}>
          开始采集
        </Button>
        {jobs.length === 0 ? <Typography.Text type="secondary">没有进行中的采集任务</Typography.Text> : null}
      </Space>
      {jobs.map((job) => {
        const [text, color] = STATE_TEXT[job.state];
        const percent = job.planSize ? Math.round((Math.min(job.unitIndex, job.planSize) / job.planSize) * 100) : 0;
        return (
          <div key={job.id} style={{ marginTop: 12 }} data-testid={`collect-job-${job.source}`}>
            <Space wrap size="middle">
              <strong>{nameOf(job.source)}</strong>
              <Tag color={color}>{text}</Tag>
              <span>已采 {job.pagesDone} 页</span>
              <span>发现 {job.itemsFound} 条</span>
              <span>新增 {job.itemsNew} 条</span>
              <span>错误 {job.errors}</span>
              {job.currentUnit ? <Typography.Text type="secondary">正在采集：{job.currentUnit.name}</Typography.Text> : null}
              {active(job) ? (
                <Button size="small" onClick={() => void cancel(job)}>
                  取消
                </Button>
              ) : null}
            </Space>
            <Progress percent={job.state === "done" ? 100 : percent} size="small" status={job.state === "failed" ? "exception" : active(job) ? "active" : undefined} />
            {job.lastError ? <Typography.Text type="danger">最近错误：{job.lastError}</Typography.Text> : null}
          </div>
        );
      })}
    </Card>
  );
}
