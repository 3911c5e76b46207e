import { integer } from "drizzle-orm/pg-core";
import { users } from "./accounts.js";
import { items } from "./catalog.js";

/** Required reference to the owning user; the row goes when the user goes. */
export const userRef = () =>
  integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

/** Required reference to a catalogue item; the row goes when the item goes. */
export const itemRef = () =>
  integer("item_id")
    .notNull()
    .references(() => items.id, { onDelete: "cascade" });
