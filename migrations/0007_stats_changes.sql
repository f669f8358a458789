CREATE TABLE "stats_changes" (
	"shard" smallint PRIMARY KEY NOT NULL,
	"changes" bigint DEFAULT 0 NOT NULL
);
