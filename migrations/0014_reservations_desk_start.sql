-- A desk's reservations in start order, for floor-plan availability: per placed desk the last one
-- starting before the window and those starting inside it (docs/query-plans.md#floor-plan-availability).
-- INCLUDE written by hand (drizzle cannot express it): the probes then read the index only.
CREATE INDEX "reservations_desk_start_idx" ON "reservations" USING btree ("desk_id","start_time") INCLUDE ("end_time","user_id");
