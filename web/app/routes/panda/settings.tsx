import { adminContentPaths as paths, SITE_SETTINGS_LIMITS as L, siteSettingsTexts as t } from "@contracts/admin-content-texts";
import { adminTableMessages } from "@contracts/admin-table-texts";
import type { SiteSettings } from "@contracts/site";
import { App, Button, Card, Form, Input, Spin } from "antd";
import { useEffect, useState } from "react";
import { AdminPage } from "../../components/admin/AdminPage";
import { adminSave } from "../../components/admin/content/admin-save";
import { adminCall } from "../../lib/admin-api";
import { pageMeta } from "../../lib/site";
import { siteOf } from "../../lib/site-settings";
import { type MetaArgs, useRevalidator } from "react-router";

export const meta = ({ matches }: MetaArgs) => pageMeta("站点设置", undefined, siteOf(matches));

/** 站点设置 (超级管理员): the texts every public page uses; saved, they show on the next request. */
export default function SiteSettingsPage() {
  const [form] = Form.useForm<SiteSettings>();
  const { message } = App.useApp();
  const [loaded, setLoaded] = useState<SiteSettings | null>(null);
  const [saving, setSaving] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  // The layout's header and this page's title show the saved title at once.
  const { revalidate } = useRevalidator();

  useEffect(() => {
    adminCall<SiteSettings>("GET", paths.settings)
      .then((answer) => {
        if (answer.code === 1) setLoaded(answer.data);
        else setLoadError(answer.msg || adminTableMessages.loadFailed);
      })
      .catch(() => setLoadError(adminTableMessages.loadFailed));
  }, []);

  const submit = async (values: SiteSettings) => {
    setSaving(true);
    const saved = await adminSave<SiteSettings>(message, "PUT", paths.settings, { ...values });
    setSaving(false);
    if (saved) {
      form.setFieldsValue(saved.data);
      void revalidate();
    }
  };

  return (
    <AdminPage title="站点设置">
      <Card>
        {loadError ? (
          <p role="alert">{loadError}</p>
        ) : (
          <Spin spinning={!loaded}>
            {/* Mounted with the stored values: the fields never show the defaults of an unloaded form. */}
            {loaded ? (
              <Form form={form} initialValues={loaded} labelCol={{ span: 4 }} wrapperCol={{ span: 16 }} onFinish={(v) => void submit(v)} data-testid="settings-form">
                <Form.Item name="title" label="站点标题" extra="首页标题，也是其他页面标题的后缀；导航栏、页脚和邮件里的站点名称也用它" rules={[{ required: true, whitespace: true, message: t.titleRequired }, { max: L.title, message: t.titleTooLong }]}>
                  <Input maxLength={L.title} placeholder={t.titleRequired} />
                </Form.Item>
                <Form.Item name="keywords" label="关键词" extra="多个关键词用英文逗号分隔" rules={[{ max: L.keywords, message: t.keywordsTooLong }]}>
                  <Input maxLength={L.keywords} />
                </Form.Item>
                <Form.Item name="description" label="站点描述" rules={[{ max: L.description, message: t.descriptionTooLong }]}>
                  <Input.TextArea rows={3} maxLength={L.description} showCount />
                </Form.Item>
                <Form.Item name="footer" label="页脚" extra="显示在每个公开页面底部，可换行；没有写 © 时自动加上一行“© 站点标题”" rules={[{ max: L.footer, message: t.footerTooLong }]}>
                  <Input.TextArea rows={4} maxLength={L.footer} showCount />
                </Form.Item>
                <Form.Item name="partnerText" label="合作说明" extra="显示在首页“合作站点”栏" rules={[{ max: L.partnerText, message: t.partnerTooLong }]}>
                  <Input.TextArea rows={2} maxLength={L.partnerText} showCount />
                </Form.Item>
                <Form.Item wrapperCol={{ offset: 4 }}>
                  <Button type="primary" htmlType="submit" loading={saving}>
                    保存
                  </Button>
                </Form.Item>
              </Form>
            ) : (
              <div style={{ minHeight: 200 }} />
            )}
          </Spin>
        )}
      </Card>
    </AdminPage>
  );
}
