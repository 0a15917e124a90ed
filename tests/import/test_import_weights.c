/* The Assimp importer's dropped-weights path: a Collada file written here
   whose first vertex is weighted to 10 bones (weights 10/55, 9/55, ...,
   1/55 on bones b0 ... b9) loads with the 8 strongest kept in order and
   renormalised (k/52), the dropped 3/55 counted on the model
   (import_dropped_vertices, import_dropped_weight), said in a warning and
   found by the checks (influences_dropped); with max_influences 4 the
   strongest 4 (k/34) and 21/55 dropped. Skipped without Assimp. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "sinew/check.h"
#include "sinew/import.h"

#define BONES 10

/* A triangle skinned to ten bones b0..b9 (children of b0), inverse binds
   identity; vertex 0 has all ten weights, vertices 1 and 2 weight 1 on b0. */
static bool write_dae(const char* path) {
    FILE* f = fopen(path, "w");
    if (!f) return false;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
               "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
               " <asset><unit name=\"meter\" meter=\"1\"/><up_axis>Y_UP</up_axis></asset>\n"
               " <library_geometries><geometry id=\"tri\" name=\"tri\"><mesh>\n"
               "  <source id=\"tri-pos\"><float_array id=\"tri-pos-array\" count=\"9\">0 0 0 1 0 0 0 1 0</float_array>\n"
               "   <technique_common><accessor source=\"#tri-pos-array\" count=\"3\" stride=\"3\">"
               "<param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/>"
               "</accessor></technique_common></source>\n"
               "  <vertices id=\"tri-vtx\"><input semantic=\"POSITION\" source=\"#tri-pos\"/></vertices>\n"
               "  <triangles count=\"1\"><input semantic=\"VERTEX\" source=\"#tri-vtx\" offset=\"0\"/><p>0 1 2</p></triangles>\n"
               " </mesh></geometry></library_geometries>\n"
               " <library_controllers><controller id=\"skin\" name=\"skin\"><skin source=\"#tri\">\n"
               "  <bind_shape_matrix>1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</bind_shape_matrix>\n"
               "  <source id=\"skin-joints\"><Name_array id=\"skin-joints-array\" count=\"%d\">",
            BONES);
    for (int b = 0; b < BONES; b++) fprintf(f, "b%d ", b);
    fprintf(f, "</Name_array>\n   <technique_common><accessor source=\"#skin-joints-array\" count=\"%d\" stride=\"1\">"
               "<param name=\"JOINT\" type=\"name\"/></accessor></technique_common></source>\n"
               "  <source id=\"skin-binds\"><float_array id=\"skin-binds-array\" count=\"%d\">",
            BONES, 16 * BONES);
    for (int b = 0; b < BONES; b++) fprintf(f, "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 ");
    fprintf(f, "</float_array>\n   <technique_common><accessor source=\"#skin-binds-array\" count=\"%d\" stride=\"16\">"
               "<param name=\"TRANSFORM\" type=\"float4x4\"/></accessor></technique_common></source>\n"
               "  <source id=\"skin-weights\"><float_array id=\"skin-weights-array\" count=\"%d\">",
            BONES, BONES + 1);
    for (int b = 0; b < BONES; b++) fprintf(f, "%.9g ", (BONES - b) / 55.0);
    fprintf(f, "1</float_array>\n   <technique_common><accessor source=\"#skin-weights-array\" count=\"%d\" "
               "stride=\"1\"><param name=\"WEIGHT\" type=\"float\"/></accessor></technique_common></source>\n"
               "  <joints><input semantic=\"JOINT\" source=\"#skin-joints\"/>"
               "<input semantic=\"INV_BIND_MATRIX\" source=\"#skin-binds\"/></joints>\n"
               "  <vertex_weights count=\"3\"><input semantic=\"JOINT\" source=\"#skin-joints\" offset=\"0\"/>"
               "<input semantic=\"WEIGHT\" source=\"#skin-weights\" offset=\"1\"/>\n"
               "   <vcount>%d 1 1</vcount><v>",
            BONES + 1, BONES);
    for (int b = 0; b < BONES; b++) fprintf(f, "%d %d ", b, b);
    fprintf(f, "0 %d 0 %d</v></vertex_weights>\n </skin></controller></library_controllers>\n"
               " <library_visual_scenes><visual_scene id=\"scene\" name=\"scene\">\n"
               "  <node id=\"b0\" sid=\"b0\" name=\"b0\" type=\"JOINT\">\n",
            BONES, BONES);
    for (int b = 1; b < BONES; b++)
        fprintf(f, "   <node id=\"b%d\" sid=\"b%d\" name=\"b%d\" type=\"JOINT\"><translate>0 %d 0</translate></node>\n", b,
                b, b, b);
    fprintf(f, "  </node>\n"
               "  <node id=\"mesh\" name=\"mesh\"><instance_controller url=\"#skin\"><skeleton>#b0</skeleton>"
               "</instance_controller></node>\n"
               " </visual_scene></library_visual_scenes>\n"
               " <scene><instance_visual_scene url=\"#scene\"/></scene>\n"
               "</COLLADA>\n");
    return fclose(f) == 0;
}

static char g_dir[] = "/tmp/sinew_weights_XXXXXX";
static char g_path[64];

/* Loads the file with max_influences `keep`; checks what was kept. */
static void check_kept(int keep) {
    sw_import_options o = {0};
    o.assimp.max_influences = keep;
    sw_model* m = NULL;
    sw_diag d;
    if (sw_import_file(g_path, &o, &m, &d) != SW_OK) {
        fprintf(stderr, "  %s\n", d.message);
        SW_CHECK(false);
        return;
    }
    SW_CHECK(m->format && strcmp(m->format, "Collada") == 0);
    SW_CHECK_EQ_INT(m->skin_count, 1);
    SW_CHECK_EQ_INT(m->mesh_count, 1);
    const sw_model_primitive* p = &m->meshes[0].primitives[0];
    const sw_model_skin* skin = &m->skins[0];
    SW_CHECK_EQ_INT(p->influence_count, keep);
    /* the vertex at the origin is the one with ten weights (Assimp may reorder) */
    size_t v = p->vertex_count;
    for (size_t i = 0; i < p->vertex_count; i++)
        if (p->positions[i * 3] == 0.0f && p->positions[i * 3 + 1] == 0.0f) v = i;
    SW_CHECK(v < p->vertex_count);
    if (v == p->vertex_count || p->influence_count != keep) {
        sw_model_free(m);
        return;
    }
    double kept_sum = 0.0;
    for (int k = 0; k < keep; k++) kept_sum += BONES - k;
    double total = 0.0;
    for (int k = 0; k < keep; k++) {
        uint16_t joint = p->joints[v * (size_t)keep + (size_t)k];
        float w = p->weights[v * (size_t)keep + (size_t)k];
        char want[16];
        snprintf(want, sizeof want, "b%d", k);
        SW_CHECK(joint < skin->joint_count && strcmp(m->nodes[skin->joints[joint]].name, want) == 0);
        SW_CHECK_NEAR(w, (BONES - k) / kept_sum, 1e-6); /* in order, renormalised */
        total += w;
    }
    SW_CHECK_NEAR(total, 1.0, 1e-6);
    SW_CHECK_EQ_INT(m->import_dropped_vertices, 1);
    SW_CHECK_NEAR(m->import_dropped_weight, (55.0 - kept_sum) / 55.0, 1e-6);
    bool warned = false;
    char expect[48];
    snprintf(expect, sizeof expect, "1 vertices have more than %d bone weights", keep);
    for (size_t i = 0; i < m->warning_count; i++) warned = warned || strstr(m->warnings[i], expect);
    SW_CHECK(warned);
    sw_check_report* report = NULL;
    SW_CHECK(sw_check_model(m, NULL, &report, &d) == SW_OK);
    const sw_check_finding* found = NULL;
    for (size_t i = 0; report && i < report->finding_count; i++)
        if (report->findings[i].code == SW_CHECK_INFLUENCES_DROPPED) found = &report->findings[i];
    SW_CHECK(found != NULL);
    if (found) {
        SW_CHECK_EQ_INT(found->count, 1);
        SW_CHECK_NEAR(found->value, (55.0 - kept_sum) / 55.0, 1e-6);
        SW_CHECK(strcmp(found->id, "influences_dropped") == 0 && found->severity == SW_CHECK_WARNING);
    }
    sw_check_report_free(report);
    sw_model_free(m);
}

static void test_ten_weights_keep_8(void) { check_kept(8); }
static void test_ten_weights_keep_4(void) { check_kept(4); }

int main(void) {
    if (!sw_assimp_available()) {
        fprintf(stderr, "  skipped: built without Assimp\n");
        printf("0 passed, 0 failed, 2 skipped\n");
        return EXIT_SUCCESS;
    }
    if (!mkdtemp(g_dir)) {
        perror("mkdtemp");
        return EXIT_FAILURE;
    }
    snprintf(g_path, sizeof g_path, "%s/ten_bones.dae", g_dir);
    if (!write_dae(g_path)) {
        fprintf(stderr, "cannot write %s\n", g_path);
        return EXIT_FAILURE;
    }
    SW_RUN(test_ten_weights_keep_8);
    SW_RUN(test_ten_weights_keep_4);
    remove(g_path);
    rmdir(g_dir);
    return sw_test_finish();
}
