import type { DjListNode } from "@contracts/suite";
import { formatDuration } from "./format";
import styles from "./suite.module.css";

/** The suite's file tree; a leaf with a start time seeks the media there. */
interface TreeProps {
  onSeek: (seconds: number) => void;
  /** Start of the track now playing, marked in the tree. */
  activeStart?: number;
}

export function FileTree({ nodes, ...props }: TreeProps & { nodes: DjListNode[] }) {
  if (!nodes.length) return <p className={styles.muted}>暂无文件列表</p>;
  return (
    <ul className={styles.tree} role="tree" aria-label="文件列表">
      {nodes.map((node, i) => (
        <TreeNode key={`${node.label}-${i}`} node={node} {...props} />
      ))}
    </ul>
  );
}

function TreeNode({ node, ...props }: TreeProps & { node: DjListNode }) {
  if (node.items) {
    return (
      <li role="treeitem" aria-expanded="true" className={styles.folder}>
        <span className={styles.folderLabel}>
          <FolderIcon /> {node.label}
        </span>
        <ul role="group" className={styles.tree}>
          {node.items.map((child, i) => (
            <TreeNode key={`${child.label}-${i}`} node={child} {...props} />
          ))}
        </ul>
      </li>
    );
  }
  const start = node.start;
  return (
    <li
      role="treeitem"
      className={start !== undefined && start === props.activeStart ? `${styles.leaf} ${styles.playingLeaf}` : styles.leaf}
      aria-current={start !== undefined && start === props.activeStart ? "true" : undefined}
    >
      <span className={styles.leafLabel}>
        <NoteIcon /> {node.label}
      </span>
      {start !== undefined ? (
        <button type="button" className={styles.seek} onClick={() => props.onSeek(start)} title="从这里播放">
          {formatDuration(start)}
        </button>
      ) : null}
    </li>
  );
}

// Inline icons: emoji glyphs are missing from many Linux fonts, and an icon font would cost bytes.
function FolderIcon() {
  return (
    <svg className={styles.icon} viewBox="0 0 16 16" aria-hidden>
      <path d="M1.5 3.5h4.2l1.5 1.6h7.3v7.4H1.5z" fill="#f5b942" />
    </svg>
  );
}

function NoteIcon() {
  return (
    <svg className={styles.icon} viewBox="0 0 16 16" aria-hidden>
      <path d="M6 2.5v8.1a2.3 2.3 0 1 0 1.4 2.1V5.6l5.1-1.2v4.9a2.3 2.3 0 1 0 1.4 2.1V1.6z" fill="#7c3aed" />
    </svg>
  );
}
