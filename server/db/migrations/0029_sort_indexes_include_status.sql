-- Issue 40 point 4: a deep page of a list filtered by status walked its sort index with OFFSET and
-- visited every row it passed in the table to read its status (447-806 ms on a million rows, where
-- an unfiltered walk takes 132-264 ms). Each sort index now carries the status (INCLUDE), so that
-- walk reads the index alone (an index-only scan, which checks the status in the index entry).
-- Status is the filter a list is most often narrowed by; the index on status needs nothing more.
-- The two sorts on an expression (a date or "never") carry their date too: PostgreSQL reads an
-- expression index alone only when the columns of the expression are in it.
--
-- Safe while the previous release runs (decision 009): the same indexes by the same names, with one
-- more column that its statements may use or ignore. Each is built under a temporary name first
-- (CREATE INDEX lets reads go on; writes wait for the build), and only then is the old one dropped
-- and the new one renamed, so reads wait only for the end of the migration, not for the builds.
CREATE INDEX "applications_sort_applicationid_new" ON "applications" USING btree ("tenant_id","id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_primaryemail_new" ON "applications" USING btree ("tenant_id",primary_email,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_clientname_new" ON "applications" USING btree ("tenant_id",client_name,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_datecreatedtimestamp_new" ON "applications" USING btree ("tenant_id",date_created,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_advisername_new" ON "applications" USING btree ("tenant_id",adviser_name,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_percentagecomplete_new" ON "applications" USING btree ("tenant_id",percentage_complete,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_lowdocstatus_new" ON "applications" USING btree ("tenant_id",low_doc_status,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_label_new" ON "applications" USING btree ("tenant_id",label,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_systemlabel_new" ON "applications" USING btree ("tenant_id",system_label,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_externalid_new" ON "applications" USING btree ("tenant_id",external_id,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_datecompletedtimestamp_new" ON "applications" USING btree ("tenant_id",coalesce(date_completed, '-infinity'::timestamptz),"id") INCLUDE ("status","date_completed") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_assigneedisplayname_new" ON "applications" USING btree ("tenant_id",assignee_display_name,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_lastdocumentuploadtimestamp_new" ON "applications" USING btree ("tenant_id",coalesce(last_document_upload, '-infinity'::timestamptz),"id") INCLUDE ("status","last_document_upload") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_documentcount_new" ON "applications" USING btree ("tenant_id",document_count,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_language_new" ON "applications" USING btree ("tenant_id",language,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_promocode_new" ON "applications" USING btree ("tenant_id",promo_code,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_applicationmodecode_new" ON "applications" USING btree ("tenant_id",application_mode_code,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_accountnumber_new" ON "applications" USING btree ("tenant_id",account_number,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_applicationtype_new" ON "applications" USING btree ("tenant_id",application_type,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_useruploadcount_new" ON "applications" USING btree ("tenant_id",user_upload_count,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_subbrandname_new" ON "applications" USING btree ("tenant_id",sub_brand_name,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_productdisplaynamelist_new" ON "applications" USING btree ("tenant_id","product_names","id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_accountname_new" ON "applications" USING btree ("tenant_id",account_name,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
CREATE INDEX "applications_sort_investmentamount_new" ON "applications" USING btree ("tenant_id",investment_amount,"id") INCLUDE ("status") WHERE status <> 'Cancelled';
--> statement-breakpoint
DROP INDEX "applications_sort_applicationid";
--> statement-breakpoint
ALTER INDEX "applications_sort_applicationid_new" RENAME TO "applications_sort_applicationid";
--> statement-breakpoint
DROP INDEX "applications_sort_primaryemail";
--> statement-breakpoint
ALTER INDEX "applications_sort_primaryemail_new" RENAME TO "applications_sort_primaryemail";
--> statement-breakpoint
DROP INDEX "applications_sort_clientname";
--> statement-breakpoint
ALTER INDEX "applications_sort_clientname_new" RENAME TO "applications_sort_clientname";
--> statement-breakpoint
DROP INDEX "applications_sort_datecreatedtimestamp";
--> statement-breakpoint
ALTER INDEX "applications_sort_datecreatedtimestamp_new" RENAME TO "applications_sort_datecreatedtimestamp";
--> statement-breakpoint
DROP INDEX "applications_sort_advisername";
--> statement-breakpoint
ALTER INDEX "applications_sort_advisername_new" RENAME TO "applications_sort_advisername";
--> statement-breakpoint
DROP INDEX "applications_sort_percentagecomplete";
--> statement-breakpoint
ALTER INDEX "applications_sort_percentagecomplete_new" RENAME TO "applications_sort_percentagecomplete";
--> statement-breakpoint
DROP INDEX "applications_sort_lowdocstatus";
--> statement-breakpoint
ALTER INDEX "applications_sort_lowdocstatus_new" RENAME TO "applications_sort_lowdocstatus";
--> statement-breakpoint
DROP INDEX "applications_sort_label";
--> statement-breakpoint
ALTER INDEX "applications_sort_label_new" RENAME TO "applications_sort_label";
--> statement-breakpoint
DROP INDEX "applications_sort_systemlabel";
--> statement-breakpoint
ALTER INDEX "applications_sort_systemlabel_new" RENAME TO "applications_sort_systemlabel";
--> statement-breakpoint
DROP INDEX "applications_sort_externalid";
--> statement-breakpoint
ALTER INDEX "applications_sort_externalid_new" RENAME TO "applications_sort_externalid";
--> statement-breakpoint
DROP INDEX "applications_sort_datecompletedtimestamp";
--> statement-breakpoint
ALTER INDEX "applications_sort_datecompletedtimestamp_new" RENAME TO "applications_sort_datecompletedtimestamp";
--> statement-breakpoint
DROP INDEX "applications_sort_assigneedisplayname";
--> statement-breakpoint
ALTER INDEX "applications_sort_assigneedisplayname_new" RENAME TO "applications_sort_assigneedisplayname";
--> statement-breakpoint
DROP INDEX "applications_sort_lastdocumentuploadtimestamp";
--> statement-breakpoint
ALTER INDEX "applications_sort_lastdocumentuploadtimestamp_new" RENAME TO "applications_sort_lastdocumentuploadtimestamp";
--> statement-breakpoint
DROP INDEX "applications_sort_documentcount";
--> statement-breakpoint
ALTER INDEX "applications_sort_documentcount_new" RENAME TO "applications_sort_documentcount";
--> statement-breakpoint
DROP INDEX "applications_sort_language";
--> statement-breakpoint
ALTER INDEX "applications_sort_language_new" RENAME TO "applications_sort_language";
--> statement-breakpoint
DROP INDEX "applications_sort_promocode";
--> statement-breakpoint
ALTER INDEX "applications_sort_promocode_new" RENAME TO "applications_sort_promocode";
--> statement-breakpoint
DROP INDEX "applications_sort_applicationmodecode";
--> statement-breakpoint
ALTER INDEX "applications_sort_applicationmodecode_new" RENAME TO "applications_sort_applicationmodecode";
--> statement-breakpoint
DROP INDEX "applications_sort_accountnumber";
--> statement-breakpoint
ALTER INDEX "applications_sort_accountnumber_new" RENAME TO "applications_sort_accountnumber";
--> statement-breakpoint
DROP INDEX "applications_sort_applicationtype";
--> statement-breakpoint
ALTER INDEX "applications_sort_applicationtype_new" RENAME TO "applications_sort_applicationtype";
--> statement-breakpoint
DROP INDEX "applications_sort_useruploadcount";
--> statement-breakpoint
ALTER INDEX "applications_sort_useruploadcount_new" RENAME TO "applications_sort_useruploadcount";
--> statement-breakpoint
DROP INDEX "applications_sort_subbrandname";
--> statement-breakpoint
ALTER INDEX "applications_sort_subbrandname_new" RENAME TO "applications_sort_subbrandname";
--> statement-breakpoint
DROP INDEX "applications_sort_productdisplaynamelist";
--> statement-breakpoint
ALTER INDEX "applications_sort_productdisplaynamelist_new" RENAME TO "applications_sort_productdisplaynamelist";
--> statement-breakpoint
DROP INDEX "applications_sort_accountname";
--> statement-breakpoint
ALTER INDEX "applications_sort_accountname_new" RENAME TO "applications_sort_accountname";
--> statement-breakpoint
DROP INDEX "applications_sort_investmentamount";
--> statement-breakpoint
ALTER INDEX "applications_sort_investmentamount_new" RENAME TO "applications_sort_investmentamount";
--> statement-breakpoint
ANALYZE "applications";
