import { recordedPaths } from "@contracts/recorded-texts";
import { Alert, Button, Modal, Space, Spin, Typography } from "antd";
import { useEffect, useState } from "react";
import { adminCall } from "../../../lib/admin-api";
import { errorText, unwrap, type PluginRow } from "../plugins/plugin-types";
import type { Replay, Staged } from "./recorded-types";
import { ReplayTable } from "./ReplayTable";

/**
 * 检查更新, or an upload / address / subscription of a newer version (issue 22): it was stored, not yet in use. The source's samples
 * are replayed through it beside the version in use, so the operator sees what it would extract
 * before activating it.
 */
export function PluginReplayDialog({ plugin, staged, onClose, onActivate }: { plugin: PluginRow | null; staged: Staged | null; onClose: () => void; onActivate: (plugin: PluginRow, staged: Staged) => void }) {
  const [replay, setReplay] = useState<Replay | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  // Keyed by what is replayed: the list reloading (a new row object) does not replay again.
  const platform = plugin?.platform ?? null;
  const versionId = staged?.versionId ?? null;
  useEffect(() => {
    if (platform === null || versionId === null) return;
    let live = true;
    setReplay(null);
    setFailure(null);
    setLoading(true);
    unwrap(adminCall<Replay>("POST", recordedPaths.replayPlugin(platform), { versionId }), "回放失败，请稍后重试")
      .then((r) => live && setReplay(r))
      .catch((err: unknown) => live && setFailure(errorText(err, "回放失败，请稍后重试")))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [platform, versionId]);

  const worse = replay?.rows.filter((r) => r.old && ((r.new.error !== null && r.old.error === null) || r.new.count < r.old.count)).length ?? 0;
  return (
    <Modal
      open={plugin !== null && staged !== null}
      title={plugin && staged ? `发现新版本：${plugin.platform} v${staged.version}（当前 v${staged.current}）` : ""}
      width={1000}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>暂不启用</Button>
          <Button type="primary" danger={worse > 0} disabled={loading} onClick={() => plugin && staged && onActivate(plugin, staged)}>
            启用新版本 v{staged?.version}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">新版本已下载但尚未启用。下面用两个版本分别读取该来源保存的样本（网络请求只由样本应答，不访问站点），确认新版本仍能提取结果后再启用。</Typography.Paragraph>
      {loading ? <Spin tip="正在回放样本…" style={{ display: "block", padding: 24 }}><div /></Spin> : null}
      {failure ? <Alert type="warning" showIcon message={failure} data-testid="replay-failure" /> : null}
      {replay ? (
        <div data-testid="plugin-replay">
          {worse > 0 ? <Alert type="error" showIcon style={{ marginBottom: 12 }} message={`新版本在 ${worse} 个样本上提取的结果比当前版本少或出错`} /> : <Alert type="success" showIcon style={{ marginBottom: 12 }} message={`新版本在全部 ${replay.rows.length} 个样本上不比当前版本差`} />}
          <ReplayTable rows={replay.rows} oldLabel={`当前版本 v${staged?.current}`} newLabel={`新版本 v${staged?.version}`} />
        </div>
      ) : null}
    </Modal>
  );
}
