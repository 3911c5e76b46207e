import { Button, Form, Input } from "antd";
import { useState } from "react";
import { BIO_MAX_CHARS, bioField, charLength, nicknameField } from "@contracts/account-fields";
import { profileMessages, profilePaths } from "@contracts/account-profile-texts";
import { zodRule } from "../../lib/form-rules";
import { userCall } from "../../lib/user-api";
import { type SessionUser, useSession } from "../../session/store";
import { useSiteMessage } from "../feedback";
import styles from "./profile.module.css";

interface ProfileValues {
  nickname: string;
  bio: string;
}

/**
 * Username and email read-only (the email changes through its own dialog), nickname 2-20 with
 * availability checked first when it changed, bio up to 200 with a counter; 保存.
 */
export function ProfileForm({ user, onChangeEmail }: { user: SessionUser; onChangeEmail: () => void }) {
  const message = useSiteMessage();
  const setUser = useSession((s) => s.setUser);
  const [form] = Form.useForm<ProfileValues>();
  const [saving, setSaving] = useState(false);
  const bioOver = charLength(Form.useWatch("bio", form) ?? "") > BIO_MAX_CHARS;

  const nicknameTaken = (msg: string) => form.setFields([{ name: "nickname", errors: [msg] }]);

  const save = async ({ nickname, bio }: ProfileValues) => {
    const name = nickname.trim();
    setSaving(true);
    try {
      if (name !== user.nickname) {
        const check = await userCall("POST", profilePaths.checkNickname, { nickname: name, id: user.id });
        if (check.code !== 1) return nicknameTaken(check.msg || profileMessages.nicknameTaken);
      }
      const res = await userCall<SessionUser>("POST", profilePaths.updateProfile, { nickname: name, bio: bio ?? "" });
      if (res.code !== 1) return void message.error(res.msg || profileMessages.saveFailed);
      setUser(res.data);
      form.setFieldsValue({ nickname: res.data.nickname, bio: res.data.bio });
      void message.success(res.msg || profileMessages.saveOk);
    } catch {
      void message.error(profileMessages.saveFailed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form
      form={form}
      name="profile"
      layout="horizontal"
      labelCol={{ flex: "88px" }}
      requiredMark={false}
      initialValues={{ nickname: user.nickname, bio: user.bio }}
      onFinish={save}
      className={styles.form}
    >
      <Form.Item label="用户名" htmlFor="profile-username">
        <Input id="profile-username" value={user.username} disabled />
      </Form.Item>
      <Form.Item label="邮箱" htmlFor="profile-email">
        <div className={styles.inline}>
          <Input id="profile-email" value={user.email} disabled />
          <Button onClick={onChangeEmail}>修改邮箱</Button>
        </div>
      </Form.Item>
      <Form.Item label="昵称" name="nickname" rules={[zodRule(nicknameField)]} validateTrigger={["onBlur", "onChange"]}>
        <Input placeholder="2-20个字符" maxLength={20} />
      </Form.Item>
      <Form.Item label="个人简介" name="bio" rules={[zodRule(bioField)]}>
        {/* A soft limit (ADR 0060): typing may go over, the count turns red and the rule's message shows. */}
        <Input.TextArea
          placeholder="介绍一下自己吧"
          rows={4}
          count={{ show: true, max: BIO_MAX_CHARS, strategy: charLength }}
          classNames={{ count: bioOver ? styles.countOver : undefined }}
        />
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Button type="primary" htmlType="submit" loading={saving}>
          保存
        </Button>
      </Form.Item>
    </Form>
  );
}
