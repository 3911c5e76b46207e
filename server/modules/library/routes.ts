import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import {
  commentSchema,
  commentsQuerySchema,
  deleteCommentResultSchema,
  downloadEntrySchema,
  downloadResultSchema,
  favoriteEntrySchema,
  favoriteStateSchema,
  itemIdBodySchema,
  itemStateQuerySchema,
  itemStateSchema,
  libraryMessages as m,
  libraryPaths as paths,
  likeStateSchema,
  pagedSchema,
  pageQuerySchema,
  playerStateSchema,
  postCommentResultSchema,
  postCommentSchema,
  putPositionsSchema,
  putQueueSchema,
} from "@contracts/library";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../errors.js";
import type { AppServices } from "../../services.js";

const member = { access: "user" } as const;
const tags = ["user"];

/** The personal library's calls (ADR 0019). Rules live in the library service. */
export const libraryRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  const { library } = services;
  const api = app.withTypeProvider<ZodTypeProvider>();

  const markRoute = (path: string, summary: string, schema: z.ZodType, msg: string, run: (userId: number, id: number) => Promise<unknown>) =>
    api.post(
      path,
      { config: member, schema: { tags, summary, body: itemIdBodySchema, response: { 200: envelope(schema) } } },
      async (request) => ok(await run(request.user!.id, request.body.id), msg),
    );
  markRoute(paths.favorite, "收藏 (重复收藏不重复计数)", favoriteStateSchema, m.favoriteOk, (u, id) => library.favorite(u, id, true));
  markRoute(paths.unfavorite, "取消收藏", favoriteStateSchema, m.unfavoriteOk, (u, id) => library.favorite(u, id, false));
  markRoute(paths.like, "推荐 (点赞)", likeStateSchema, m.likeOk, (u, id) => library.like(u, id, true));
  markRoute(paths.unlike, "取消推荐", likeStateSchema, m.unlikeOk, (u, id) => library.like(u, id, false));

  api.post(
    paths.download,
    {
      config: member,
      schema: {
        tags,
        summary: "下载: 网盘地址和提取码 (VIP套曲需有效VIP; 收费套曲每位会员只扣一次币)",
        body: itemIdBodySchema,
        response: { 200: envelope(downloadResultSchema) },
      },
    },
    async (request) => {
      try {
        return ok(await library.download(request.user!.id, request.body.id), m.downloadOk);
      } catch (err) {
        if (err instanceof AppError) throw err;
        request.log.error({ err, itemId: request.body.id }, "download failed");
        throw new AppError(500, m.downloadFailed);
      }
    },
  );

  api.get(
    paths.favorites,
    { config: member, schema: { tags, summary: "我的收藏 (最新在前)", querystring: pageQuerySchema, response: { 200: envelope(pagedSchema(favoriteEntrySchema)) } } },
    async (request) => ok(await library.favorites(request.user!.id, request.query)),
  );

  api.get(
    paths.downloads,
    { config: member, schema: { tags, summary: "下载记录 (最新在前)", querystring: pageQuerySchema, response: { 200: envelope(pagedSchema(downloadEntrySchema)) } } },
    async (request) => ok(await library.downloads(request.user!.id, request.query)),
  );

  api.get(
    paths.itemState,
    {
      config: member,
      schema: {
        tags,
        summary: "当前会员对若干条目的状态 (收藏、推荐、下载、播放进度); 页面加载后调用",
        querystring: itemStateQuerySchema,
        response: { 200: envelope(z.array(itemStateSchema)) },
      },
    },
    async (request) => ok(await library.itemStates(request.user!.id, request.query.ids)),
  );

  api.get(
    paths.comments,
    {
      config: { access: "public" },
      schema: { tags: ["frontend"], summary: "评论列表 (最新在前, 每页10条)", querystring: commentsQuerySchema, response: { 200: envelope(pagedSchema(commentSchema)) } },
    },
    async (request) => ok(await library.comments(request.query.id, request.query.page)),
  );

  api.post(
    paths.comment,
    {
      config: member,
      schema: { tags, summary: "发表评论 (1-500字, 每分钟最多5条)", body: postCommentSchema, response: { 200: envelope(postCommentResultSchema) } },
    },
    async (request) => ok(await library.postComment(request.user!.id, request.body.id, request.body.content), m.commentOk),
  );

  api.post(
    paths.deleteComment,
    {
      config: member,
      schema: { tags, summary: "删除自己的评论 (id 为评论编号)", body: itemIdBodySchema, response: { 200: envelope(deleteCommentResultSchema) } },
    },
    async (request) => ok(await library.deleteComment(request.user!.id, request.body.id), m.commentDeleted),
  );

  api.get(
    paths.player,
    { config: member, schema: { tags, summary: "播放器: 续播进度和播放列表", response: { 200: envelope(playerStateSchema) } } },
    async (request) => ok(await library.playerState(request.user!.id)),
  );

  api.put(
    paths.playerPositions,
    {
      config: member,
      schema: { tags, summary: "保存续播进度 (批量; 同一条目以 updatedAt 最新者为准)", body: putPositionsSchema, response: { 200: envelope(z.null()) } },
    },
    async (request) => {
      await library.savePositions(request.user!.id, request.body.positions);
      return ok(null);
    },
  );

  api.put(
    paths.playerQueue,
    {
      config: member,
      schema: { tags, summary: "保存播放列表 (条目编号和当前项, 最多200首)", body: putQueueSchema, response: { 200: envelope(z.null()) } },
    },
    async (request) => {
      await library.saveQueue(request.user!.id, request.body);
      return ok(null);
    },
  );
};
