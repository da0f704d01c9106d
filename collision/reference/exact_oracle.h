// The exact CPU oracle (library vkcollide_reference, links CGAL; never part of vkcollide):
// exact triangle pairs, containment, point-in-solid and intersection volumes, per pair or scene.
// Ground truth for every GPU method in tests and the harness. One header per job:
//   world_mesh.h          placement in world space in double precision (determinism contract)
//   triangle_pairs.h      intersectingTrianglePairs (box broad phase + exact do_intersect)
//   point_classifier.h    PointClassifier, pointInside, pointsInside
//   solid_check.h         checkSolid, solidVolume
//   intersection_volume.h intersectionVolume (Epeck corefinement)
//   pair_query.h          PlacedMesh, exactPair, interferes
//   exact_scene.h         exactScene
// No exceptions leave these calls: CGAL exceptions are caught and returned as a Status.
#pragma once

#include "collision/reference/exact_scene.h"
#include "collision/reference/intersection_volume.h"
#include "collision/reference/pair_query.h"
#include "collision/reference/point_classifier.h"
#include "collision/reference/solid_check.h"
#include "collision/reference/triangle_pairs.h"
#include "collision/reference/world_mesh.h"
