import { suiteFormMessages as m } from "@contracts/suite-form-texts";
import type { Envelope } from "../../../lib/api";
import { storedAdminToken } from "../../../lib/admin-api";

/**
 * A file to one of the form's upload calls (multipart field `file`), with upload progress:
 * fetch reports none, and a mix can be hundreds of megabytes. Answers the envelope.
 */
export function adminUpload<T>(path: string, file: Blob, onProgress?: (percent: number) => void): Promise<Envelope<T>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.setRequestHeader("Accept", "application/json");
    const token = storedAdminToken();
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(Math.floor((e.loaded / e.total) * 100));
    };
    const failed = () => resolve({ code: 0, msg: m.uploadFailed, data: null as T });
    xhr.onerror = failed;
    xhr.onabort = failed;
    xhr.onload = () => {
      try {
        resolve(JSON.parse(xhr.responseText) as Envelope<T>);
      } catch {
        failed();
      }
    };
    const body = new FormData();
    body.append("file", file);
    xhr.send(body);
  });
}
