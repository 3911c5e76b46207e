import { Button, Popconfirm } from "antd";
import type { ReactNode } from "react";

/**
 * The back office's delete button: a red button that asks first (the one confirm of every
 * screen's row and batch deletes). `link` is the small text button of a table row's actions.
 */
export function DeleteConfirm({
  title,
  onConfirm,
  label = "删除",
  link = false,
  disabled = false,
}: {
  title: ReactNode;
  onConfirm: () => unknown;
  label?: ReactNode;
  link?: boolean;
  disabled?: boolean;
}) {
  return (
    <Popconfirm title={title} okText="删除" cancelText="取消" okButtonProps={{ danger: true }} onConfirm={onConfirm} disabled={disabled}>
      <Button type={link ? "link" : "default"} size={link ? "small" : undefined} danger disabled={disabled}>
        {label}
      </Button>
    </Popconfirm>
  );
}
