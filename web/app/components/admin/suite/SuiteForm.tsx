import { PictureOutlined, UploadOutlined } from "@ant-design/icons";
import { App, Button, Form, Input, InputNumber, Progress, Radio, Select, Space, Switch, Upload, type UploadProps } from "antd";
import { useState } from "react";
import { useNavigate } from "react-router";
import { adminTableMessages } from "@contracts/admin-table-texts";
import { isHlsAddress } from "@contracts/play-format";
import type { SuiteFormOptions } from "@contracts/suite-form";
import {
  COVER_MAX_BYTES,
  isSuiteUrl,
  MEDIA_ACCEPT,
  MEDIA_MAX_BYTES,
  MEDIA_SOURCE_NAMES,
  SUITE_ARTIST_MAX,
  SUITE_KIND_NAMES,
  SUITE_PLAYTYPE_NAMES,
  SUITE_PRICE_MAX,
  SUITE_STATUS_NAMES,
  SUITE_TITLE_MAX,
  SUITE_VIPDOWN_NAMES,
  suiteFormMessages as m,
  WEB_PASSWORD_MAX,
} from "@contracts/suite-form-texts";
import { adminCall } from "../../../lib/admin-api";
import { type EditNode, fromEditable, problemOf } from "./djlist-edit";
import { DjListEditor } from "./DjListEditor";
import { durationHint, type SuiteFormValues, toRequestBody } from "./form-values";
import { adminUpload, uploadMedia } from "./upload";
import styles from "./suite-form.module.css";

const choices = <K extends string>(names: Record<K, string>) => (Object.keys(names) as K[]).map((value) => ({ value, label: names[value] }));
const urlRule = (required: string | null) => ({
  validator: async (_: unknown, value: string | null | undefined) => {
    const v = (value ?? "").trim();
    if (!v) {
      if (required) throw new Error(required);
      return;
    }
    if (!isSuiteUrl(v)) throw new Error(m.badUrl);
  },
});

/**
 * The one form of /panda/add and /panda/edit/{id} (issue 12): everything a suite has. The
 * rules and texts are the server's (contracts); the server checks again and has the last word.
 */
export function SuiteForm({ id, initial, options }: { id?: number; initial: SuiteFormValues; options: SuiteFormOptions }) {
  const [form] = Form.useForm<SuiteFormValues>();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const [coverBusy, setCoverBusy] = useState(false);
  const [mediaProgress, setMediaProgress] = useState<number | null>(null);
  const cover = Form.useWatch("cover", form);
  const mediaSource = Form.useWatch("mediaSource", form) ?? initial.mediaSource;
  const vipdown = Form.useWatch("vipdown", form) ?? initial.vipdown;
  const durationSec = Form.useWatch("durationSec", form);
  const sizeBytes = Form.useWatch("sizeBytes", form);
  // Editing: the stored tree, accepted as it is when it comes back unchanged (as the server does).
  const [storedTree] = useState(() => (id ? fromEditable(initial.djlist) : undefined));

  const uploadCover: UploadProps["customRequest"] = async ({ file }) => {
    setCoverBusy(true);
    try {
      const res = await adminUpload<{ url: string }>("/api/pandaadmin/upload/cover", file as Blob);
      if (res.code !== 1) return void message.error(res.msg || m.uploadFailed);
      form.setFieldValue("cover", res.data.url);
      void message.success(res.msg);
    } finally {
      setCoverBusy(false);
    }
  };
  const beforeCover: UploadProps["beforeUpload"] = (file) => {
    if (file.size > COVER_MAX_BYTES) return void message.error(m.coverTooLarge), Upload.LIST_IGNORE;
    return true;
  };

  const onMediaFile: UploadProps["customRequest"] = async ({ file }) => {
    setMediaProgress(0);
    try {
      const res = await uploadMedia(file as File, setMediaProgress);
      if (res.code !== 1) return void message.error(res.msg || m.uploadFailed);
      form.setFieldsValue({ playUrl: res.data.url, durationSec: res.data.duration, sizeBytes: res.data.size, playtype: res.data.playtype });
      void form.validateFields(["playUrl", "djlist"]);
      void message.success(res.msg);
    } finally {
      setMediaProgress(null);
    }
  };
  const beforeMedia: UploadProps["beforeUpload"] = (file) => {
    if (file.size > MEDIA_MAX_BYTES) return void message.error(m.mediaTooLarge), Upload.LIST_IGNORE;
    return true;
  };

  const onFinish = async (values: SuiteFormValues) => {
    setSaving(true);
    try {
      const body = toRequestBody({ ...initial, ...values });
      const res = id ? await adminCall<{ id: number }>("PUT", `/api/pandaadmin/suites/${id}`, body) : await adminCall<{ id: number }>("POST", "/api/pandaadmin/suites", body);
      if (res.code !== 1) return void message.error(res.msg || adminTableMessages.saveFailed);
      void message.success(res.msg);
      void navigate("/panda/sutieList");
    } catch {
      void message.error(adminTableMessages.saveFailed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form
      form={form}
      name="suite"
      className={styles.form}
      initialValues={initial}
      labelCol={{ flex: "112px" }}
      wrapperCol={{ flex: 1 }}
      labelWrap
      onFinish={onFinish}
      scrollToFirstError
    >
      <Form.Item label="套曲名称" name="title" rules={[{ required: true, whitespace: true, message: m.titleRequired }, { max: SUITE_TITLE_MAX, message: m.titleTooLong }]}>
        <Input placeholder={m.titleRequired} maxLength={SUITE_TITLE_MAX} showCount />
      </Form.Item>
      <Form.Item label="分类" name="categoryId" rules={[{ required: true, message: m.categoryRequired }]}>
        <Select
          placeholder={m.categoryRequired}
          options={options.categories.map((c) => ({ value: c.id, label: c.parentId ? `└ ${c.name}` : c.name }))}
          showSearch={{ optionFilterProp: "label" }}
        />
      </Form.Item>
      <Form.Item label="歌手" name="artist" rules={[{ max: SUITE_ARTIST_MAX, message: m.artistTooLong }]}>
        <Input placeholder="未知歌手" maxLength={SUITE_ARTIST_MAX} />
      </Form.Item>
      <Form.Item label="类别" name="kind">
        <Radio.Group options={choices(SUITE_KIND_NAMES)} optionType="button" />
      </Form.Item>

      <Form.Item label="封面">
        <div className={styles.coverRow}>
          {cover ? <img src={cover} alt="封面预览" className={styles.coverPreview} /> : <div className={styles.coverPreview} aria-hidden />}
          <Space orientation="vertical">
            <Upload accept="image/*" showUploadList={false} beforeUpload={beforeCover} customRequest={uploadCover} disabled={coverBusy}>
              <Button icon={<PictureOutlined />} loading={coverBusy}>
                上传封面
              </Button>
            </Upload>
            <Form.Item name="cover" noStyle rules={[urlRule(null)]}>
              <Input placeholder="或填写封面地址" allowClear style={{ width: 360, maxWidth: "100%" }} aria-label="封面地址" />
            </Form.Item>
          </Space>
        </div>
      </Form.Item>

      <Form.Item label="媒体" name="mediaSource">
        <Radio.Group options={choices(MEDIA_SOURCE_NAMES)} />
      </Form.Item>
      {mediaSource === "upload" ? (
        <Form.Item label=" " colon={false}>
          <Upload accept={MEDIA_ACCEPT} showUploadList={false} beforeUpload={beforeMedia} customRequest={onMediaFile} disabled={mediaProgress !== null}>
            <Button icon={<UploadOutlined />} loading={mediaProgress !== null}>
              上传媒体文件 (mp3 / m4a / mp4，≤1GB)
            </Button>
          </Upload>
          {mediaProgress !== null ? <Progress percent={mediaProgress} size="small" /> : null}
        </Form.Item>
      ) : null}
      <Form.Item
        label={mediaSource === "hls" ? "HLS 地址" : "播放地址"}
        name="playUrl"
        rules={[
          urlRule(m.playUrlRequired),
          {
            validator: async (_: unknown, v: string | undefined) => {
              if (mediaSource === "hls" && v && !isHlsAddress(v)) throw new Error(m.hlsUrl);
            },
          },
        ]}
        extra={mediaSource === "upload" && sizeBytes ? `文件大小 ${(sizeBytes / 1024 / 1024).toFixed(1)} MB` : undefined}
      >
        <Input readOnly={mediaSource === "upload"} placeholder={mediaSource === "upload" ? "上传后自动填写" : mediaSource === "hls" ? "https://…/index.m3u8" : "https://… 或 /media/…"} />
      </Form.Item>
      <Form.Item label="类型" name="playtype">
        <Radio.Group options={choices(SUITE_PLAYTYPE_NAMES)} />
      </Form.Item>
      <Form.Item label="时长" name="durationSec" extra={durationHint(durationSec)} rules={[{ type: "integer", min: 0, message: m.badDuration }]}>
        <InputNumber min={0} precision={0} suffix="秒" style={{ width: 180 }} />
      </Form.Item>
      <Form.Item name="sizeBytes" hidden>
        <InputNumber />
      </Form.Item>
      <Form.Item label="来源站点" name="sourceSite" rules={[{ required: true, message: m.siteRequired }]}>
        <Select options={options.sites.map((s) => ({ value: s.code, label: s.name }))} style={{ width: 240 }} />
      </Form.Item>

      <Form.Item label="下载方式" name="vipdown">
        <Radio.Group options={choices(SUITE_VIPDOWN_NAMES)} />
      </Form.Item>
      {vipdown === "0" ? (
        <Form.Item label="价格" name="price" extra="0 为免费下载" rules={[{ required: true, type: "integer", min: 0, max: SUITE_PRICE_MAX, message: m.badPrice }]}>
          <InputNumber min={0} max={SUITE_PRICE_MAX} precision={0} suffix="币" style={{ width: 180 }} />
        </Form.Item>
      ) : null}
      <Form.Item label="网盘链接" name="weburl" rules={[urlRule(null)]}>
        <Input placeholder="https://pan.…" allowClear />
      </Form.Item>
      <Form.Item label="网盘密码" name="webPassword" rules={[{ max: WEB_PASSWORD_MAX, message: m.passwordTooLong }]}>
        <Input maxLength={WEB_PASSWORD_MAX} style={{ width: 180 }} allowClear />
      </Form.Item>

      <Form.Item
        label="文件列表"
        name="djlist"
        dependencies={["durationSec"]}
        rules={[
          {
            validator: async (_: unknown, v: EditNode[] | undefined) => {
              const problem = problemOf(v ?? [], form.getFieldValue("durationSec"), storedTree);
              if (problem) throw new Error(problem.message);
            },
          },
        ]}
      >
        <DjListEditor durationSec={durationSec} stored={storedTree} />
      </Form.Item>

      <Form.Item label="状态" name="status">
        <Radio.Group options={choices(SUITE_STATUS_NAMES)} />
      </Form.Item>
      <Form.Item label="推荐" name="recommended" valuePropName="checked">
        <Switch />
      </Form.Item>

      <Form.Item label=" " colon={false} className={styles.actions}>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving}>
            保存
          </Button>
          <Button onClick={() => void navigate("/panda/sutieList")}>返回列表</Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
