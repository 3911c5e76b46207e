/** localStorage key of the user token (spec section 7). */
export const TOKEN_KEY = "token";
/** localStorage key of the admin token: admin info is kept client side (spec section 6). */
export const ADMIN_TOKEN_KEY = "admin_token";
/** sessionStorage key of the address a guest wanted before being sent to /login. */
export const LOGIN_REDIRECT_KEY = "login_redirect";
