import { CameraOutlined, LoadingOutlined, UserOutlined } from "@ant-design/icons";
import { Avatar, Upload, type UploadProps } from "antd";
import { useState } from "react";
import { AVATAR_MAX_BYTES, profileMessages, profilePaths } from "@contracts/account-profile-texts";
import { userCall } from "../../lib/user-api";
import { useSession } from "../../session/store";
import { useSiteMessage } from "../feedback";
import styles from "./profile.module.css";

/**
 * The member's avatar with its upload (spec: images only, 头像上传成功 / 头像上传失败，请稍后重试).
 * The server decodes and re-encodes the picture; the size and type checks here only save a
 * pointless upload. The new avatar shows at once, here and in the navbar (the session user).
 */
export function AvatarUpload() {
  const message = useSiteMessage();
  const user = useSession((s) => s.user);
  const setUser = useSession((s) => s.setUser);
  const [uploading, setUploading] = useState(false);

  const beforeUpload: UploadProps["beforeUpload"] = (file) => {
    if (!file.type.startsWith("image/")) {
      void message.error(profileMessages.avatarNotImage);
      return Upload.LIST_IGNORE;
    }
    if (file.size > AVATAR_MAX_BYTES) {
      void message.error(profileMessages.avatarTooLarge);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps["customRequest"] = async ({ file }) => {
    const body = new FormData();
    body.append("avatar", file as Blob);
    setUploading(true);
    try {
      const res = await userCall<{ url: string }>("POST", profilePaths.uploadAvatar, body);
      if (res.code !== 1) return void message.error(res.msg || profileMessages.avatarFailed);
      const current = useSession.getState().user;
      if (current) setUser({ ...current, avatar: res.data.url });
      void message.success(res.msg || profileMessages.avatarOk);
    } catch {
      void message.error(profileMessages.avatarFailed);
    } finally {
      setUploading(false);
    }
  };

  return (
    <Upload
      name="avatar"
      accept="image/*"
      showUploadList={false}
      beforeUpload={beforeUpload}
      customRequest={customRequest}
      disabled={uploading}
    >
      <button type="button" className={styles.avatarButton} aria-label="更换头像" title="点击更换头像">
        <Avatar size={96} src={user?.avatar || undefined} icon={<UserOutlined />} alt="头像" />
        <span className={styles.avatarOverlay}>{uploading ? <LoadingOutlined /> : <CameraOutlined />}</span>
      </button>
    </Upload>
  );
}
