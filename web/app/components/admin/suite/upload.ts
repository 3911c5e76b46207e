import { MEDIA_CHUNK_BYTES, suiteFormMessages as m } from "@contracts/suite-form-texts";
import type { MediaUploaded } from "@contracts/suite-form";
import type { Envelope } from "../../../lib/api";
import { storedAdminToken } from "../../../lib/admin-api";

type Progress = (percent: number) => void;
const failed = <T>(): Envelope<T> => ({ code: 0, msg: m.uploadFailed, data: null as T });

/**
 * One request with upload progress (fetch reports none, and a mix can be hundreds of MB);
 * answers the envelope, or 上传失败 when the network fails.
 */
function send<T>(method: string, path: string, body: XMLHttpRequestBodyInit | null, onProgress?: (loaded: number) => void): Promise<Envelope<T>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    xhr.setRequestHeader("Accept", "application/json");
    const token = storedAdminToken();
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    if (body instanceof Blob) xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (e) => onProgress?.(e.loaded);
    xhr.onerror = () => resolve(failed());
    xhr.onabort = () => resolve(failed());
    xhr.onload = () => {
      try {
        resolve(JSON.parse(xhr.responseText) as Envelope<T>);
      } catch {
        resolve(failed());
      }
    };
    xhr.send(body);
  });
}

/** A file to one of the form's multipart upload calls (field `file`). */
export function adminUpload<T>(path: string, file: Blob, onProgress?: Progress): Promise<Envelope<T>> {
  const body = new FormData();
  body.append("file", file);
  return send<T>("POST", path, body, (loaded) => onProgress?.(Math.floor((loaded / Math.max(1, file.size)) * 100)));
}

const MEDIA = "/api/pandaadmin/upload/media";

/**
 * A media file: small ones in one request; larger ones in pieces of MEDIA_CHUNK_BYTES, so each
 * request arrives within the server's request timeout (ADR 0029). A piece the server says it
 * already has (409 with `received`) is not sent again; a failed piece is retried twice.
 */
export async function uploadMedia(file: File, onProgress?: Progress): Promise<Envelope<MediaUploaded>> {
  if (file.size <= MEDIA_CHUNK_BYTES) return adminUpload<MediaUploaded>(MEDIA, file, onProgress);
  const started = await send<{ uploadId: string }>("POST", `${MEDIA}/chunks`, null);
  if (started.code !== 1) return { ...started, data: null as unknown as MediaUploaded };
  const base = `${MEDIA}/chunks/${started.data.uploadId}`;
  let offset = 0;
  let retries = 0;
  while (offset < file.size) {
    const piece = file.slice(offset, offset + MEDIA_CHUNK_BYTES);
    const res = await send<{ received: number }>("PUT", `${base}?offset=${offset}`, piece, (loaded) =>
      onProgress?.(Math.min(99, Math.floor(((offset + loaded) / file.size) * 100))),
    );
    const received = (res.data as { received?: number } | null)?.received;
    if (res.code === 1 || typeof received === "number") {
      offset = received ?? offset;
      retries = 0;
      continue;
    }
    if (res.msg !== m.uploadFailed || ++retries > 2) {
      void send("DELETE", base, null);
      return { ...res, data: null as unknown as MediaUploaded };
    }
  }
  onProgress?.(100);
  return send<MediaUploaded>("POST", `${base}/finish`, null);
}
