-- A desk's reservations in time order, for room and department search. They never overlap
-- (reservations_desk_overlap), so the last one starting before a window's end says whether the
-- desk is free in it: one B-tree descent, about a third of a probe of the constraint's GiST index.
CREATE INDEX "reservations_desk_start_idx" ON "reservations" USING btree ("desk_id","start_time","end_time");
