import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

/**
 * Every route of spec section 2. Each module is its own chunk, loaded only when its page is
 * opened (and routes are discovered lazily), so public pages never fetch the admin code.
 */
export default [
  layout("layouts/default.tsx", [
    index("routes/home.tsx"),
    route("site/:file", "routes/suite-detail.tsx", { id: "site-detail" }),
    route("sutie/:file", "routes/suite-detail.tsx", { id: "sutie-detail" }),
    route("sort/:diyname", "routes/sort.tsx"),
    route("login", "routes/login.tsx"),
    route("forgot-password", "routes/forgot-password.tsx"),
    layout("layouts/user.tsx", [
      route("user/profile", "routes/user/profile.tsx"),
      route("user/favorites", "routes/user/favorites.tsx"),
      route("user/downloads", "routes/user/downloads.tsx"),
      route("user/coinlog", "routes/user/coinlog.tsx"),
    ]),
    route("*", "routes/not-found.tsx"),
  ]),
  route("panda/login", "routes/panda/login.tsx"),
  route("panda", "layouts/admin.tsx", [
    index("routes/panda/dashboard.tsx"),
    route("block", "routes/panda/block.tsx"),
    route("add", "routes/panda/add.tsx"),
    route("edit/:id", "routes/panda/edit.tsx"),
    route("sutieList", "routes/panda/sutie-list.tsx"),
    route("sutieCategory", "routes/panda/sutie-category.tsx"),
    route("collectData", "routes/panda/collect-data.tsx"),
    route("userList", "routes/panda/user-list.tsx"),
    route("comments", "routes/panda/comments.tsx"),
    route("sources", "routes/panda/sources.tsx"),
    route("plugins", "routes/panda/plugins.tsx"),
    route("admins", "routes/panda/admins.tsx"),
    route("audit", "routes/panda/audit.tsx"),
    route("settings", "routes/panda/settings.tsx"),
  ]),
] satisfies RouteConfig;
