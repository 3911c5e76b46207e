import { WarningFilled } from "@ant-design/icons";
import { PLUGIN_REPLACEABLE_BUILTINS } from "@contracts/plugin-admin-texts";
import { Button, Popconfirm, Select, Space, Switch, Tag, Tooltip, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import { DeleteConfirm } from "../DeleteConfirm";
import { CAPABILITY_TEXT, type PluginRow } from "./plugin-types";

export interface PluginActions {
  setEnabled(row: PluginRow, enabled: boolean): void;
  setReplaces(row: PluginRow, replaces: string | null): void;
  tryIt(row: PluginRow): void;
  editVariables(row: PluginRow): void;
  update(row: PluginRow): void;
  rollback(row: PluginRow): void;
  /** 样本: the answers kept of the plugin's source. */
  samples(row: PluginRow): void;
  remove(row: PluginRow): void;
  /** The platform whose call is running (its buttons wait). */
  busy: string | null;
}

const NONE = "";
const REPLACE_OPTIONS = [{ value: NONE, label: "不替换 (自有来源)" }, ...PLUGIN_REPLACEABLE_BUILTINS.map((b) => ({ value: b.code, label: `${b.name} (${b.code})` }))];
const mono = { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", fontSize: 12 };

/** Where an update comes from: the plugin's `srcUrl`, else the address it was installed from. */
export const updateSource = (row: PluginRow) => [row.srcUrl, row.origin].find((u) => u && /^https?:\/\//iu.test(u)) ?? null;

/** The plugins table's columns: what each plugin is and says of itself, its switches and actions. */
export function pluginColumns<Row extends PluginRow>(a: PluginActions): ColumnsType<Row> {
  return [
    {
      title: "插件",
      key: "platform",
      render: (_v, row) => (
        <Space direction="vertical" size={2}>
          <Typography.Text strong style={{ fontSize: 15 }}>
            {row.platform}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            作者：{row.author ?? "未注明"}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            来源代码：<Typography.Text code style={mono} data-testid="plugin-source">{row.source}</Typography.Text>
          </Typography.Text>
          {row.srcUrl ? (
            <Typography.Link href={row.srcUrl} target="_blank" rel="noreferrer" ellipsis style={{ maxWidth: 260, fontSize: 12 }}>
              {row.srcUrl}
            </Typography.Link>
          ) : null}
        </Space>
      ),
    },
    {
      title: "版本",
      key: "version",
      width: 130,
      render: (_v, row) => (
        <Space direction="vertical" size={2}>
          <Tag color="geekblue" data-testid="plugin-version" style={{ marginInlineEnd: 0 }}>
            v{row.version}
          </Tag>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="plugin-previous-version">
            {row.previousVersion ? `上一版本 v${row.previousVersion}` : "无上一版本"}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: "能力",
      key: "capabilities",
      width: 150,
      render: (_v, row) => {
        const declared = CAPABILITY_TEXT.filter(([key]) => row.capabilities[key]);
        return declared.length ? (
          <Space size={[0, 4]} wrap>
            {declared.map(([key, text, color]) => (
              <Tag key={key} color={color}>
                {text}
              </Tag>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">未声明</Typography.Text>
        );
      },
    },
    {
      title: "替换内置来源",
      key: "replaces",
      width: 180,
      render: (_v, row) => (
        <Select
          size="small"
          style={{ width: 160 }}
          value={row.replacesBuiltin ? row.source : NONE}
          options={REPLACE_OPTIONS}
          disabled={a.busy === row.platform}
          onChange={(v: string) => a.setReplaces(row, v === NONE ? null : v)}
          aria-label={`${row.platform} 替换内置来源`}
        />
      ),
    },
    {
      title: "启用",
      key: "enabled",
      width: 230,
      render: (_v, row) => (
        <Space direction="vertical" size={4} style={{ width: "100%" }}>
          <Space size={6}>
            {/* Keyed by its state: a switch the site turned off under it is drawn afresh, not mid-animation. */}
            <Switch key={`${row.platform}:${row.enabled}`} checked={row.enabled} loading={a.busy === row.platform} onChange={(v) => a.setEnabled(row, v)} aria-label={`启用 ${row.platform}`} />
            {row.enabled ? <Tag color="green">已启用</Tag> : <Tag>{row.disabledReason ? "已被自动停用" : "未启用"}</Tag>}
          </Space>
          {row.disabledReason ? (
            <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="plugin-disabled-reason">
              <WarningFilled /> 站点已自动停用：{row.disabledReason}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    {
      title: "操作",
      key: "actions",
      width: 250,
      render: (_v, row) => {
        const busy = a.busy === row.platform;
        const src = updateSource(row);
        return (
          <Space size={[6, 6]} wrap>
            <Button size="small" type={row.enabled ? "default" : "primary"} ghost={!row.enabled} disabled={!row.capabilities.search} onClick={() => a.tryIt(row)}>
              试用
            </Button>
            <Tooltip title={row.userVariables.length ? undefined : "该插件没有用户变量"}>
              <Button size="small" disabled={row.userVariables.length === 0} onClick={() => a.editVariables(row)}>
                变量{row.userVariables.length ? ` (${row.userVariables.length})` : ""}
              </Button>
            </Tooltip>
            <Button size="small" onClick={() => a.samples(row)}>
              样本
            </Button>
            <Tooltip title={src ? `从 ${src} 下载更高的版本，用样本回放对比后再启用` : "插件没有 srcUrl，无法检查更新"}>
              <Button size="small" disabled={!src || busy} onClick={() => a.update(row)}>
                检查更新
              </Button>
            </Tooltip>
            <Tooltip title={row.previousVersion ? undefined : "没有可回滚的上一个版本"}>
              <Popconfirm
                title={`回滚 ${row.platform}？`}
                description={row.previousVersion ? `从 v${row.version} 回到 v${row.previousVersion}` : undefined}
                okText="回滚"
                cancelText="取消"
                disabled={!row.previousVersion || busy}
                onConfirm={() => a.rollback(row)}
              >
                <Button size="small" disabled={!row.previousVersion || busy}>
                  回滚{row.previousVersion ? ` 到 v${row.previousVersion}` : ""}
                </Button>
              </Popconfirm>
            </Tooltip>
            <DeleteConfirm link title={`删除插件 ${row.platform} 及其全部版本？`} disabled={busy} onConfirm={() => a.remove(row)} />
          </Space>
        );
      },
    },
  ];
}
