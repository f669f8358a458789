-- Every write statement on a table GET /api/stats counts adds one to stats_changes in the same
-- transaction, so a server process may keep its figures exactly as long as the sum is unchanged
-- (and the UTC day too). Statement-level: one update per statement, however many rows it touches.
-- The row is chosen by transaction id: concurrent transactions mostly land on different rows.
INSERT INTO "stats_changes" ("shard") SELECT generate_series(0, 15);--> statement-breakpoint
CREATE FUNCTION "stats_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "stats_changes" SET "changes" = "changes" + 1 WHERE "shard" = txid_current() % 16;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Counted only: inserts and deletes change the totals; the places and users are not dated.
CREATE TRIGGER "departments_stats_changed" AFTER INSERT OR DELETE OR TRUNCATE ON "departments" FOR EACH STATEMENT EXECUTE FUNCTION "stats_changed"();--> statement-breakpoint
CREATE TRIGGER "rooms_stats_changed" AFTER INSERT OR DELETE OR TRUNCATE ON "rooms" FOR EACH STATEMENT EXECUTE FUNCTION "stats_changed"();--> statement-breakpoint
CREATE TRIGGER "desks_stats_changed" AFTER INSERT OR DELETE OR TRUNCATE ON "desks" FOR EACH STATEMENT EXECUTE FUNCTION "stats_changed"();--> statement-breakpoint
CREATE TRIGGER "equipment_stats_changed" AFTER INSERT OR DELETE OR TRUNCATE ON "equipment" FOR EACH STATEMENT EXECUTE FUNCTION "stats_changed"();--> statement-breakpoint
CREATE TRIGGER "users_stats_changed" AFTER INSERT OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "stats_changed"();--> statement-breakpoint
-- Counted and dated: a changed start, end or creation time moves a daily figure.
CREATE TRIGGER "reservations_stats_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "reservations" FOR EACH STATEMENT EXECUTE FUNCTION "stats_changed"();--> statement-breakpoint
CREATE TRIGGER "reports_stats_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "reports" FOR EACH STATEMENT EXECUTE FUNCTION "stats_changed"();
