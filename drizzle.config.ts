import { defineConfig } from "drizzle-kit";

// Only `drizzle-kit generate` is used; migrations are applied by server/db/migrate.ts at start-up.
export default defineConfig({
  dialect: "postgresql",
  schema: "./server/db/schema/index.ts",
  out: "./server/db/migrations",
  strict: true,
  verbose: true,
});
