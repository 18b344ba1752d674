/* dynlib_pq.c — libpq's functions that cimport calls, loaded on first use (see dynlib.h). */
#include <libpq-fe.h>
#include <string.h>

#include "base/dynlib.h"

static dynlib_t pq = DYNLIB(CIMPORT_SONAME_PQ);

const char *dynlib_pq_error(void) {
    return dynlib_error(&pq);
}

/* The function `name` of type T (a function pointer type) into `var`, or NULL. */
#define PQ_FN(T, var, name) DYNLIB_FN(&pq, T, var, name)

/* Without libpq there is no connection: NULL, whose status is CONNECTION_BAD and whose error
 * message is why libpq could not be loaded (as libpq itself answers for a NULL connection). */
PGconn *PQconnectdb(const char *conninfo) {
    PQ_FN(PGconn * (*)(const char *), f, "PQconnectdb");
    return f ? f(conninfo) : NULL;
}

ConnStatusType PQstatus(const PGconn *conn) {
    PQ_FN(ConnStatusType(*)(const PGconn *), f, "PQstatus");
    return f ? f(conn) : CONNECTION_BAD;
}

char *PQerrorMessage(const PGconn *conn) {
    PQ_FN(char *(*)(const PGconn *), f, "PQerrorMessage");
    return f ? f(conn) : (char *)dynlib_pq_error();
}

void PQfinish(PGconn *conn) {
    PQ_FN(void (*)(PGconn *), f, "PQfinish");
    if (f) f(conn);
}

char *PQescapeIdentifier(PGconn *conn, const char *str, size_t len) {
    PQ_FN(char *(*)(PGconn *, const char *, size_t), f, "PQescapeIdentifier");
    return f ? f(conn, str, len) : NULL;
}

void PQfreemem(void *ptr) {
    PQ_FN(void (*)(void *), f, "PQfreemem");
    if (f) f(ptr);
}

PGresult *PQexec(PGconn *conn, const char *query) {
    PQ_FN(PGresult * (*)(PGconn *, const char *), f, "PQexec");
    return f ? f(conn, query) : NULL;
}

PGresult *PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                       const char *const *paramValues, const int *paramLengths, const int *paramFormats,
                       int resultFormat) {
    PQ_FN(PGresult * (*)(PGconn *, const char *, int, const Oid *, const char *const *, const int *, const int *, int),
          f, "PQexecParams");
    return f ? f(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat) : NULL;
}

ExecStatusType PQresultStatus(const PGresult *res) {
    PQ_FN(ExecStatusType(*)(const PGresult *), f, "PQresultStatus");
    return f ? f(res) : PGRES_FATAL_ERROR;
}

void PQclear(PGresult *res) {
    PQ_FN(void (*)(PGresult *), f, "PQclear");
    if (f) f(res);
}

int PQntuples(const PGresult *res) {
    PQ_FN(int (*)(const PGresult *), f, "PQntuples");
    return f ? f(res) : 0;
}

int PQgetlength(const PGresult *res, int tup_num, int field_num) {
    PQ_FN(int (*)(const PGresult *, int, int), f, "PQgetlength");
    return f ? f(res, tup_num, field_num) : 0;
}

char *PQgetvalue(const PGresult *res, int tup_num, int field_num) {
    PQ_FN(char *(*)(const PGresult *, int, int), f, "PQgetvalue");
    return f ? f(res, tup_num, field_num) : NULL;
}
