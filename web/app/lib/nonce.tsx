import { createContext, useContext } from "react";

/**
 * The CSP nonce of the response being rendered. entry.server provides it; in the browser it
 * is undefined, which is fine: React Router's script tags suppress hydration warnings.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
