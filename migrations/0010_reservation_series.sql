CREATE TYPE "public"."series_frequency" AS ENUM('DAILY', 'WEEKLY');--> statement-breakpoint
CREATE TABLE "reservation_series" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"desk_id" uuid NOT NULL,
	"type" "reservation_type" DEFAULT 'shared' NOT NULL,
	"frequency" "series_frequency" NOT NULL,
	"interval" smallint DEFAULT 1 NOT NULL,
	"weekdays" smallint[] DEFAULT '{}'::smallint[] NOT NULL,
	"until" date,
	"count" smallint,
	"time_zone" text NOT NULL,
	"first_start" timestamp with time zone NOT NULL,
	"first_end" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reservation_series_ends" CHECK (("reservation_series"."until" is null) <> ("reservation_series"."count" is null))
);
--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "series_id" uuid;--> statement-breakpoint
ALTER TABLE "reservation_series" ADD CONSTRAINT "reservation_series_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_series" ADD CONSTRAINT "reservation_series_desk_id_desks_id_fk" FOREIGN KEY ("desk_id") REFERENCES "public"."desks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reservation_series_user_idx" ON "reservation_series" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "reservation_series_desk_idx" ON "reservation_series" USING btree ("desk_id");--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_series_id_reservation_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."reservation_series"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reservations_series_idx" ON "reservations" USING btree ("series_id","start_time");