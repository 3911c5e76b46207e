import type {
  Comment,
  DownloadEntry,
  DownloadResult,
  FavoriteEntry,
  FavoriteState,
  ItemState,
  LikeState,
  Paged,
  PlaybackPosition,
  PlayerState,
} from "@contracts/library";
import { libraryPaths as paths } from "@contracts/library-texts";
import { apiGet, type Envelope } from "../../lib/api";
import { ApiUnavailableError, userCall } from "../../lib/user-api";

/**
 * The personal library's calls (spec section 7: handleFavorite, handleUnfavorite, handleLike,
 * handleUnlike, handleDownload, getFavoritesList, getDownloadsList). Each resolves to the
 * server's envelope; a network failure rejects (ApiUnavailableError), so callers show the
 * spec's "…失败，请稍后重试".
 */
const post = <T>(path: string, body: Record<string, unknown>) => userCall<T>("POST", path, body);
const page = (p: number, size: number) => `page=${p}&size=${size}`;

export const handleFavorite = (id: number) => post<FavoriteState>(paths.favorite, { id });
export const handleUnfavorite = (id: number) => post<FavoriteState>(paths.unfavorite, { id });
export const handleLike = (id: number) => post<LikeState>(paths.like, { id });
export const handleUnlike = (id: number) => post<LikeState>(paths.unlike, { id });
export const handleDownload = (id: number) => post<DownloadResult>(paths.download, { id });

export const getFavoritesList = (p: number, size: number) => userCall<Paged<FavoriteEntry>>("GET", `${paths.favorites}?${page(p, size)}`);
export const getDownloadsList = (p: number, size: number) => userCall<Paged<DownloadEntry>>("GET", `${paths.downloads}?${page(p, size)}`);

export const getItemStates = (ids: readonly number[]) => userCall<ItemState[]>("GET", `${paths.itemState}?ids=${ids.join(",")}`);

export const postComment = (id: number, content: string) => post<{ comment: Comment; count: number }>(paths.comment, { id, content });

/** Public: anyone reads comments, without a token. */
export async function getComments(id: number, p: number): Promise<Envelope<Paged<Comment>>> {
  const envelope = await apiGet<Paged<Comment>>(`${paths.comments}?id=${id}&page=${p}`, null);
  if (!envelope) throw new ApiUnavailableError("comments");
  return envelope;
}

export const getPlayerState = () => userCall<PlayerState>("GET", paths.player);
export const putPositions = (positions: PlaybackPosition[]) => userCall<null>("PUT", paths.playerPositions, { positions });
export const putQueue = (ids: number[], index: number) => userCall<null>("PUT", paths.playerQueue, { ids, index });
