import { ArrowDownOutlined, ArrowUpOutlined, CustomerServiceOutlined, DeleteOutlined, FolderOpenOutlined, FolderAddOutlined, PlusOutlined, SortAscendingOutlined } from "@ant-design/icons";
import { Button, Empty, Input, Space, Tooltip } from "antd";
// antd's own reset of a form item's status context (as its Input addons use): the item's error
// belongs to the row at fault only, not to every input of the tree.
import { NoFormStyle } from "antd/es/form/context";
import { DJLIST_LABEL_MAX, type DjListNode } from "@contracts/djlist";
import { addNode, type EditNode, keyAt, moveNode, newFolder, newTrack, problemOf, removeNode, sortEditable, updateNode } from "./djlist-edit";
import styles from "./suite-form.module.css";

interface Props {
  value?: EditNode[];
  onChange?: (next: EditNode[]) => void;
  /** The media's length, when known: times past it are refused. */
  durationSec?: number | null;
  /** Editing: the tree as stored (kept as it is when it comes back unchanged). */
  stored?: DjListNode[];
}

/**
 * The suite's file tree (djlist): folders and tracks with a label and a start time (分:秒).
 * The public page lists every level by name (numbers by value) and the player seeks by time,
 * so the editor marks the first row out of either order; 按名称排序 puts the rows in the
 * public order. The message itself is the form item's (the same text the server answers).
 */
export function DjListEditor({ value = [], onChange, durationSec, stored }: Props) {
  const problem = problemOf(value, durationSec, stored);
  const badKey = problem ? keyAt(value, problem.path) : null;
  const set = (next: EditNode[]) => onChange?.(next);

  const rows = (list: EditNode[], depth: number) =>
    list.map((node, i) => (
      <div key={node.key} role="treeitem" aria-level={depth + 1} aria-expanded={node.folder ? true : undefined}>
        <div className={`${styles.row} ${node.key === badKey ? styles.badRow : ""}`} style={{ paddingLeft: depth * 24 }} data-testid="djlist-row">
          <span className={styles.rowIcon} aria-hidden>
            {node.folder ? <FolderOpenOutlined /> : <CustomerServiceOutlined />}
          </span>
          <Input
            className={styles.label}
            value={node.label}
            maxLength={DJLIST_LABEL_MAX}
            placeholder={node.folder ? "文件夹名称" : "曲目名称"}
            aria-label={node.folder ? "文件夹名称" : "曲目名称"}
            status={node.key === badKey ? "error" : undefined}
            onChange={(e) => set(updateNode(value, node.key, { label: e.target.value }))}
          />
          {node.folder ? (
            <span className={styles.time} />
          ) : (
            <Input
              className={styles.time}
              value={node.time}
              placeholder="分:秒"
              aria-label="开始时间"
              status={node.key === badKey ? "error" : undefined}
              onChange={(e) => set(updateNode(value, node.key, { time: e.target.value }))}
            />
          )}
          <Space.Compact>
            <Tooltip title="上移">
              <Button icon={<ArrowUpOutlined />} aria-label="上移" disabled={i === 0} onClick={() => set(moveNode(value, node.key, -1))} />
            </Tooltip>
            <Tooltip title="下移">
              <Button icon={<ArrowDownOutlined />} aria-label="下移" disabled={i === list.length - 1} onClick={() => set(moveNode(value, node.key, 1))} />
            </Tooltip>
            {node.folder ? (
              <Tooltip title="在文件夹中添加曲目">
                <Button icon={<PlusOutlined />} aria-label="在文件夹中添加曲目" onClick={() => set(addNode(value, node.key, newTrack()))} />
              </Tooltip>
            ) : null}
            <Tooltip title="删除">
              <Button danger icon={<DeleteOutlined />} aria-label="删除" onClick={() => set(removeNode(value, node.key))} />
            </Tooltip>
          </Space.Compact>
        </div>
        {node.folder ? <div role="group">{rows(node.children, depth + 1)}</div> : null}
      </div>
    ));

  return (
    <div className={styles.djlist}>
      <Space wrap className={styles.djlistBar}>
        <Button icon={<PlusOutlined />} onClick={() => set(addNode(value, null, newTrack()))}>
          添加曲目
        </Button>
        <Button icon={<FolderAddOutlined />} onClick={() => set(addNode(value, null, newFolder()))}>
          添加文件夹
        </Button>
        <Button icon={<SortAscendingOutlined />} disabled={value.length < 2 && !value.some((n) => n.folder)} onClick={() => set(sortEditable(value))}>
          按名称排序
        </Button>
      </Space>
      {value.length ? (
        <NoFormStyle status>
          <div role="tree" aria-label="文件列表" className={styles.tree}>
            {rows(value, 0)}
          </div>
        </NoFormStyle>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无文件列表：单个媒体文件即可，套曲可添加分段曲目与开始时间" />
      )}
    </div>
  );
}
