/* The tool information interface (MPI 4.1 §15.3): its own life before and after MPI, control
 * and performance variables, categories, enumerations, the error event and its source. */
#include <mpi.h>
#include <string.h>
#include "check.h"

static int events_seen = 0, event_code = 0, event_class = 0, event_source = -1;
static MPI_Count event_time = -1;
static int user_token = 7;
static void *seen_user_data = NULL;
static int freed = 0;

static void on_event(MPI_T_event_instance ev, MPI_T_event_registration reg,
                     MPI_T_cb_safety safety, void *user_data)
{
    (void)reg;
    (void)safety;
    int buf[2] = {0, 0};
    events_seen++;
    seen_user_data = user_data;
    MPI_T_event_read(ev, 0, &event_code);
    MPI_T_event_copy(ev, buf);
    event_class = buf[1];
    MPI_T_event_get_timestamp(ev, &event_time);
    MPI_T_event_get_source(ev, &event_source);
}

static void on_free(MPI_T_event_registration reg, MPI_T_cb_safety safety, void *user_data)
{
    (void)reg;
    (void)safety;
    if (user_data == &user_token)
        freed++;
}

static int find(const char *name, int *index)
{
    return MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_LEVEL, index);
}

int main(int argc, char **argv)
{
    int provided = -1, n = 0, idx = -1, count = 0, rc;
    char name[256], desc[1024];
    int name_len, desc_len, verbosity, bind, scope;
    MPI_Datatype dt;
    MPI_T_enum et;

    CHECK_EQ(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED,
             "MPI 4.1 §15.3.4: calls before MPI_T_init_thread are MPI_T_ERR_NOT_INITIALIZED");
    CHECK_EQ(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED, "finalize without init");
    CHECK_EQ(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS,
             "MPI 4.1 §15.3.4: MPI_T works before MPI_Init");
    CHECK_EQ(provided, MPI_THREAD_SINGLE, "the level asked for");
    CHECK_EQ(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided), MPI_SUCCESS,
             "MPI 4.1 §15.3.4: init may be called again (reference counted)");

    /* Control variables. */
    CHECK_EQ(MPI_T_cvar_get_num(&n), MPI_SUCCESS, "cvar_get_num");
    CHECK(n >= 2, "the initial error handler and the limits");
    CHECK_EQ(MPI_T_cvar_get_index("mpicache_initial_errhandler", &idx), MPI_SUCCESS,
             "MPI 4.1 §15.3.6: cvar_get_index");
    CHECK_EQ(MPI_T_cvar_get_index("no_such_variable", &count), MPI_T_ERR_INVALID_NAME,
             "MPI 4.1 §15.3.6: an unknown name is MPI_T_ERR_INVALID_NAME");
    name_len = sizeof name;
    desc_len = sizeof desc;
    CHECK_EQ(MPI_T_cvar_get_info(idx, name, &name_len, &verbosity, &dt, &et, desc, &desc_len,
                                 &bind, &scope),
             MPI_SUCCESS, "cvar_get_info");
    CHECK(strcmp(name, "mpicache_initial_errhandler") == 0, "its name");
    CHECK_EQ(name_len, (int)strlen(name) + 1, "MPI 4.1 §15.3.3: the length counts the NUL");
    CHECK(dt == MPI_INT && bind == MPI_T_BIND_NO_OBJECT && scope == MPI_T_SCOPE_LOCAL,
          "an int, bound to no object, local");
    name_len = 0;
    CHECK_EQ(MPI_T_cvar_get_info(idx, NULL, &name_len, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
             MPI_SUCCESS, "MPI 4.1 §15.3.3: NULL arguments are not written");
    CHECK_EQ(name_len, (int)strlen("mpicache_initial_errhandler") + 1,
             "a length of 0 asks for the length");
    CHECK_EQ(MPI_T_cvar_get_info(n, name, &name_len, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
             MPI_T_ERR_INVALID_INDEX, "MPI 4.1 §15.3.6: index n is invalid");
    CHECK_EQ(MPI_T_cvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
             MPI_T_ERR_INVALID_INDEX, "a negative index is invalid");

    /* Its enumeration. */
    int num = 0, value = 0;
    CHECK(et != MPI_T_ENUM_NULL, "MPI 4.1 §15.3.5: the variable has an enumeration");
    name_len = sizeof name;
    CHECK_EQ(MPI_T_enum_get_info(et, &num, name, &name_len), MPI_SUCCESS, "enum_get_info");
    CHECK_EQ(num, 3, "three predefined handlers");
    int seen_return = 0;
    for (int i = 0; i < num; i++) {
        name_len = sizeof name;
        MPI_T_enum_get_item(et, i, &value, name, &name_len);
        if (value == MPI_ERRORS_RETURN)
            seen_return = strcmp(name, "MPI_ERRORS_RETURN") == 0;
    }
    CHECK(seen_return, "MPI 4.1 §15.3.5: items have values and names");
    CHECK_EQ(MPI_T_enum_get_item(et, num, &value, NULL, NULL), MPI_T_ERR_INVALID_INDEX,
             "an item past the last");
    CHECK_EQ(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &num, NULL, NULL), MPI_T_ERR_INVALID_HANDLE,
             "MPI_T_ENUM_NULL is no enumeration");

    /* Setting it before MPI_Init chooses MPI_COMM_WORLD's handler (MPI 4.1 §9.3). */
    MPI_T_cvar_handle ch;
    int v = 0;
    CHECK_EQ(MPI_T_cvar_handle_alloc(idx, NULL, &ch, &count), MPI_SUCCESS, "handle_alloc");
    CHECK_EQ(count, 1, "one value");
    CHECK_EQ(MPI_T_cvar_read(ch, &v), MPI_SUCCESS, "cvar_read");
    CHECK_EQ(v, MPI_ERRORS_ARE_FATAL, "MPI 4.1 §9.3: the default initial handler");
    v = 12345;
    CHECK_EQ(MPI_T_cvar_write(ch, &v), MPI_T_ERR_INVALID, "a value outside the enumeration");
    v = MPI_ERRORS_RETURN;
    CHECK_EQ(MPI_T_cvar_write(ch, &v), MPI_SUCCESS, "cvar_write before MPI_Init");
    CHECK_EQ(MPI_Init(&argc, &argv), MPI_SUCCESS, "MPI_Init");
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "MPI 4.1 §9.3: the world starts with the handler chosen");
    MPI_Errhandler_free(&eh);
    v = MPI_ERRORS_ARE_FATAL;
    CHECK_EQ(MPI_T_cvar_write(ch, &v), MPI_T_ERR_CVAR_SET_NOT_NOW,
             "MPI 4.1 §15.3.6: after MPI_Init it can no longer take effect");
    CHECK_EQ(MPI_T_cvar_handle_free(&ch), MPI_SUCCESS, "handle_free");
    CHECK(ch == MPI_T_CVAR_HANDLE_NULL, "the handle becomes MPI_T_CVAR_HANDLE_NULL");
    CHECK_EQ(MPI_T_cvar_read(ch, &v), MPI_T_ERR_INVALID_HANDLE, "a freed handle");

    /* A limit: constant. */
    unsigned long long limit = 0;
    CHECK_EQ(MPI_T_cvar_get_index("mpicache_max_keyvals", &idx), MPI_SUCCESS, "a limit");
    MPI_T_cvar_handle_alloc(idx, NULL, &ch, &count);
    CHECK_EQ(MPI_T_cvar_read(ch, &limit), MPI_SUCCESS, "read the limit");
    CHECK(limit > 1000, "the keyval limit is a real, large number");
    CHECK_EQ(MPI_T_cvar_write(ch, &limit), MPI_T_ERR_CVAR_SET_NEVER,
             "MPI 4.1 §15.3.6: a constant can never be set");
    MPI_T_cvar_handle_free(&ch);

    /* Performance variables read the world's own counts. */
    MPI_T_pvar_session ps;
    MPI_T_pvar_handle ph, ph2;
    unsigned long long live = 0, after = 0;
    CHECK_EQ(MPI_T_pvar_session_create(&ps), MPI_SUCCESS, "MPI 4.1 §15.3.7: session_create");
    CHECK_EQ(find("mpicache_live_communicators", &idx), MPI_SUCCESS, "pvar_get_index");
    CHECK_EQ(MPI_T_pvar_get_index("mpicache_live_communicators", MPI_T_PVAR_CLASS_COUNTER, &n),
             MPI_T_ERR_INVALID_NAME, "MPI 4.1 §15.3.7: names are looked up per class");
    CHECK_EQ(MPI_T_pvar_handle_alloc(ps, idx, NULL, &ph, &count), MPI_SUCCESS, "alloc");
    CHECK_EQ(MPI_T_pvar_read(ps, ph, &live), MPI_SUCCESS, "pvar_read");
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_T_pvar_read(ps, ph, &after);
    CHECK(after == live + 1, "MPI 4.1 §15.3.7: a dup is one communicator more");
    int readonly = 0, continuous = 0, atomic = 1, var_class = 0;
    CHECK_EQ(MPI_T_pvar_get_info(idx, NULL, NULL, NULL, &var_class, &dt, NULL, NULL, NULL, &bind,
                                 &readonly, &continuous, &atomic),
             MPI_SUCCESS, "pvar_get_info");
    CHECK(var_class == MPI_T_PVAR_CLASS_LEVEL && dt == MPI_UNSIGNED_LONG_LONG && readonly &&
              continuous && !atomic,
          "a level, read-only and continuous");
    CHECK_EQ(MPI_T_pvar_start(ps, ph), MPI_T_ERR_PVAR_NO_STARTSTOP,
             "MPI 4.1 §15.3.7: a continuous variable cannot be started");
    CHECK_EQ(MPI_T_pvar_stop(ps, ph), MPI_T_ERR_PVAR_NO_STARTSTOP, "nor stopped");
    CHECK_EQ(MPI_T_pvar_start(ps, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS,
             "MPI_T_PVAR_ALL_HANDLES starts what can be started");
    CHECK_EQ(MPI_T_pvar_write(ps, ph, &live), MPI_T_ERR_PVAR_NO_WRITE,
             "MPI 4.1 §15.3.7: a read-only variable cannot be written");
    CHECK_EQ(MPI_T_pvar_reset(ps, ph), MPI_T_ERR_PVAR_NO_WRITE, "nor reset");
    CHECK_EQ(MPI_T_pvar_readreset(ps, ph, &live), MPI_T_ERR_PVAR_NO_WRITE, "nor readreset");
    CHECK_EQ(MPI_T_pvar_reset(ps, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS, "reset all: none");

    /* A variable bound to a communicator: its attributes. */
    int keyval;
    unsigned long long attrs = 99;
    CHECK_EQ(find("mpicache_communicator_attributes", &idx), MPI_SUCCESS, "bound pvar");
    MPI_T_pvar_get_info(idx, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &bind, NULL, NULL,
                        NULL);
    CHECK_EQ(bind, MPI_T_BIND_MPI_COMM, "MPI 4.1 §15.3.2: bound to a communicator");
    CHECK_EQ(MPI_T_pvar_handle_alloc(ps, idx, &c, &ph2, &count), MPI_SUCCESS, "bind to c");
    MPI_T_pvar_read(ps, ph2, &attrs);
    CHECK(attrs == 0, "no attribute yet");
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    MPI_Comm_set_attr(c, keyval, &keyval);
    MPI_T_pvar_read(ps, ph2, &attrs);
    CHECK(attrs == 1, "MPI 4.1 §7.7: one attribute cached");
    MPI_Comm bad = 12345;
    CHECK_EQ(MPI_T_pvar_handle_alloc(ps, idx, &bad, &ph, &count), MPI_T_ERR_INVALID_HANDLE,
             "binding to a handle that names no communicator");
    MPI_T_pvar_session ps2;
    MPI_T_pvar_session_create(&ps2);
    CHECK_EQ(MPI_T_pvar_read(ps2, ph2, &attrs), MPI_T_ERR_INVALID_HANDLE,
             "MPI 4.1 §15.3.7: a handle belongs to its session");
    MPI_T_pvar_session_free(&ps2);
    CHECK_EQ(MPI_T_pvar_read(ps2, ph2, &attrs), MPI_T_ERR_INVALID_SESSION, "a freed session");
    CHECK_EQ(MPI_T_pvar_handle_free(ps, &ph2), MPI_SUCCESS, "pvar_handle_free");
    CHECK(ph2 == MPI_T_PVAR_HANDLE_NULL, "the handle becomes MPI_T_PVAR_HANDLE_NULL");
    MPI_Comm_free_keyval(&keyval);

    /* Categories. */
    int ncat = 0, cat = -1, ncv = 0, npv = 0, nsub = 0, nev = 0, list[64];
    CHECK_EQ(MPI_T_category_get_num(&ncat), MPI_SUCCESS, "category_get_num");
    CHECK(ncat >= 1, "MPI 4.1 §15.3.9: at least one category");
    CHECK_EQ(MPI_T_category_get_index("mpicache_objects", &cat), MPI_SUCCESS, "get_index");
    CHECK_EQ(MPI_T_category_get_info(cat, NULL, NULL, NULL, NULL, &ncv, &npv, &nsub),
             MPI_SUCCESS, "category_get_info");
    MPI_T_pvar_get_num(&n);
    CHECK(npv == n && npv <= 64, "the objects category holds every performance variable");
    CHECK_EQ(MPI_T_category_get_pvars(cat, npv, list), MPI_SUCCESS, "get_pvars");
    CHECK(list[0] == 0 && list[npv - 1] == npv - 1, "their indices");
    CHECK_EQ(MPI_T_category_get_num_events(cat, &nev), MPI_SUCCESS, "get_num_events");
    CHECK_EQ(nev, 1, "and the error event");
    CHECK_EQ(MPI_T_category_get_events(cat, 1, list), MPI_SUCCESS, "get_events");
    CHECK_EQ(MPI_T_category_get_index("mpicache", &cat), MPI_SUCCESS, "the parent");
    MPI_T_category_get_info(cat, NULL, NULL, NULL, NULL, &ncv, &npv, &nsub);
    CHECK_EQ(MPI_T_category_get_categories(cat, nsub, list), MPI_SUCCESS, "subcategories");
    CHECK(nsub == 2 && list[0] != cat, "MPI 4.1 §15.3.9: categories contain categories");
    CHECK_EQ(MPI_T_category_get_cvars(ncat, 1, list), MPI_T_ERR_INVALID_INDEX, "bad index");
    int update = -1;
    CHECK_EQ(MPI_T_category_changed(&update), MPI_SUCCESS, "category_changed");
    CHECK_EQ(update, 0, "nothing changes while the process runs");

    /* The error event and its source. */
    MPI_T_event_registration reg;
    int nsrc = 0;
    MPI_Count tps = 0, t0 = 0;
    CHECK_EQ(MPI_T_event_get_num(&n), MPI_SUCCESS, "event_get_num");
    CHECK_EQ(MPI_T_event_get_index("mpicache_error_raised", &idx), MPI_SUCCESS, "get_index");
    int nel = 2;
    MPI_Datatype types[2];
    MPI_Aint displs[2];
    CHECK_EQ(MPI_T_event_get_info(idx, NULL, NULL, NULL, types, displs, &nel, NULL, NULL, NULL,
                                  NULL, NULL),
             MPI_SUCCESS, "event_get_info");
    CHECK(nel == 2 && types[0] == MPI_INT && displs[1] == 4, "two ints");
    CHECK_EQ(MPI_T_source_get_num(&nsrc), MPI_SUCCESS, "source_get_num");
    CHECK_EQ(MPI_T_source_get_info(0, name, &name_len, NULL, NULL, NULL, &tps, NULL, NULL),
             MPI_SUCCESS, "source_get_info");
    CHECK(nsrc == 1 && tps == 1000000000, "one source in nanoseconds");
    MPI_T_source_get_timestamp(0, &t0);
    CHECK_EQ(MPI_T_event_handle_alloc(idx, NULL, MPI_INFO_NULL, &reg), MPI_SUCCESS, "alloc");
    CHECK_EQ(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL,
                                           &user_token, on_event),
             MPI_SUCCESS, "MPI 4.1 §15.3.8: register_callback");
    CHECK_EQ(MPI_T_event_register_callback(reg, 12345, MPI_INFO_NULL, NULL, on_event),
             MPI_T_ERR_INVALID, "an unknown safety level");
    rc = MPI_Comm_rank(12345, &n);
    CHECK_EQ(events_seen, 1, "MPI 4.1 §15.3.8: the error raised an event");
    CHECK(event_code == rc && event_class == MPI_ERR_COMM, "its elements: code and class");
    CHECK(seen_user_data == &user_token, "the user data given");
    CHECK(event_time >= t0 && event_source == 0, "MPI 4.1 §15.3.8: timestamp and source");
    CHECK_EQ(MPI_T_event_read(12345, 0, &n), MPI_T_ERR_INVALID_HANDLE,
             "an instance is valid only during its callback");
    MPI_Info used;
    CHECK_EQ(MPI_T_event_handle_get_info(reg, &used), MPI_SUCCESS, "handle_get_info");
    MPI_Info_free(&used);
    CHECK_EQ(MPI_T_event_handle_free(reg, &user_token, on_free), MPI_SUCCESS, "handle_free");
    CHECK_EQ(freed, 1, "MPI 4.1 §15.3.8: the free callback runs with its user data");
    MPI_Comm_rank(12345, &n);
    CHECK_EQ(events_seen, 1, "no callback after the registration is freed");

    MPI_Comm_free(&c);
    MPI_T_pvar_handle_free(ps, &ph);
    MPI_T_pvar_session_free(&ps);
    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI_Finalize");
    CHECK_EQ(MPI_T_cvar_get_num(&n), MPI_SUCCESS, "MPI 4.1 §15.3.4: MPI_T outlives MPI_Finalize");
    CHECK_EQ(MPI_T_finalize(), MPI_SUCCESS, "first finalize");
    CHECK_EQ(MPI_T_cvar_get_num(&n), MPI_SUCCESS, "one initialization is left");
    CHECK_EQ(MPI_T_finalize(), MPI_SUCCESS, "second finalize");
    CHECK_EQ(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED,
             "MPI 4.1 §15.3.4: the last finalize ends it");
    return check_summary("mpit");
}
