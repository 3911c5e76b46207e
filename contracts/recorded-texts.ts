/** The back office's recorded answers (样本, issue 22): its Chinese texts. */
export const recordedMessages = {
  notFound: "样本不存在或已删除",
  trialNotFound: "试用结果已过期或已保存，请重新试用",
  tooLarge: "响应内容过大，无法保存为样本",
  badId: "样本编号无效",
  badSource: "来源代码无效",
  noneToReplay: "该来源还没有保存的样本，请先在试用中保存为样本",
  versionNotFound: "该插件没有这个版本",
  notPlugin: "该来源既不是内置来源也不是已安装的插件",
  sameVersion: "没有可对比的版本：请先检查更新或指定版本",
  nothingStaged: "没有待启用的新版本",
  savedFromTry: "试用时保存",
} as const;

export const recordedPaths = {
  list: (source: string) => `/api/pandaadmin/recorded?source=${encodeURIComponent(source)}`,
  body: (id: number) => `/api/pandaadmin/recorded/${id}/body`,
  answer: (id: number) => `/api/pandaadmin/recorded/${id}`,
  saveTrial: (id: number) => `/api/pandaadmin/recorded/trial/${id}`,
  replaySource: (source: string) => `/api/pandaadmin/recorded/replay?source=${encodeURIComponent(source)}`,
  stage: (platform: string) => `/api/pandaadmin/plugins/${encodeURIComponent(platform)}/stage`,
  activate: (platform: string) => `/api/pandaadmin/plugins/${encodeURIComponent(platform)}/activate`,
  replayPlugin: (platform: string) => `/api/pandaadmin/plugins/${encodeURIComponent(platform)}/replay`,
} as const;

/** What a recorded answer was asked for, as the back office names it. */
export const RECORDED_CALL_TEXT: Record<string, string> = { search: "搜索", getMediaSource: "播放地址", getTopLists: "榜单", getTopListDetail: "榜单详情", getMusicInfo: "详情" };
