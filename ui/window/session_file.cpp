#include "window/session_file.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include "dirac/error.hpp"

namespace dirac::ui {
namespace {

constexpr const char* kFormat = "dirac-studio-session";

[[noreturn]] void Fail(const QString& path, const QString& what) {
  throw dirac::IoError(QStringLiteral("%1: %2").arg(path, what).toStdString());
}

QJsonArray Vector(const std::array<double, 3>& v) { return {v[0], v[1], v[2]}; }

std::array<double, 3> ReadVector(const QString& path, const QJsonObject& o, const char* key) {
  const QJsonArray a = o.value(key).toArray();
  if (a.size() != 3 || !a[0].isDouble() || !a[1].isDouble() || !a[2].isDouble())
    Fail(path, QStringLiteral("camera.%1 must be three numbers").arg(key));
  return {a[0].toDouble(), a[1].toDouble(), a[2].toDouble()};
}

}  // namespace

QString PinnedCsvPath(const QString& session_path) {
  QString base = session_path;
  if (base.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) base.chop(5);
  return base + ".pinned.csv";
}

void WriteSession(const Session& session, const QString& path) {
  const QDir folder = QFileInfo(path).absoluteDir();
  QJsonObject root;
  root["format"] = kFormat;
  root["version"] = 1;
  root["scenario"] = folder.relativeFilePath(session.scenario);
  root["overrides"] = QJsonArray::fromStringList(session.overrides);
  if (session.camera) {
    const SceneView::CameraPose& c = *session.camera;
    root["camera"] =
        QJsonObject{{"position", Vector(c.position)}, {"focal_point", Vector(c.focal_point)},
                    {"view_up", Vector(c.view_up)},   {"view_angle", c.view_angle},
                    {"parallel", c.parallel},         {"parallel_scale", c.parallel_scale}};
  }
  if (session.charts) {
    QJsonArray charts;
    for (const dirac::PlotSpec& spec : *session.charts) {
      QJsonArray series;
      for (const std::string& s : spec.series) series.append(QString::fromStdString(s));
      charts.append(QJsonObject{{"title", QString::fromStdString(spec.title)}, {"series", series}});
    }
    root["charts"] = charts;
  }
  if (!session.pinned_csv.isEmpty())
    root["pinned"] = QJsonObject{{"csv", folder.relativeFilePath(session.pinned_csv)},
                                 {"label", session.pinned_label}};
  QJsonObject docks;
  for (const auto& [name, shown] : session.docks) docks[name] = shown;
  root["views"] = QJsonObject{{"compare", session.compare},
                              {"gauge", session.gauge},
                              {"loop", session.loop},
                              {"time", session.time},
                              {"docks", docks}};
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) Fail(path, "cannot write: " + file.errorString());
  file.write(QJsonDocument(root).toJson(QJsonDocument::Indented));
  if (!file.commit()) Fail(path, "cannot write: " + file.errorString());
}

Session ReadSession(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) Fail(path, "cannot read: " + file.errorString());
  QJsonParseError error;
  const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
  if (error.error != QJsonParseError::NoError)
    Fail(path,
         QStringLiteral("invalid JSON at byte %1: %2").arg(error.offset).arg(error.errorString()));
  if (!document.isObject()) Fail(path, "not a session (a JSON object is expected)");
  const QJsonObject root = document.object();
  if (root.value("format").toString() != kFormat)
    Fail(path, QStringLiteral("format: expected \"%1\"").arg(kFormat));
  if (root.value("version").toInt() != 1) Fail(path, "version: only version 1 is known");
  const QDir folder = QFileInfo(path).absoluteDir();
  Session session;
  if (!root.value("scenario").isString() || root.value("scenario").toString().isEmpty())
    Fail(path, "scenario: the scenario file is missing");
  session.scenario = QDir::cleanPath(folder.absoluteFilePath(root.value("scenario").toString()));
  if (root.contains("overrides")) {
    if (!root.value("overrides").isArray()) Fail(path, "overrides must be a list of NAME=VALUE");
    for (const QJsonValue& v : root.value("overrides").toArray()) {
      if (!v.isString() || !v.toString().contains('='))
        Fail(path, "overrides must be a list of NAME=VALUE");
      session.overrides << v.toString();
    }
  }
  if (root.contains("camera")) {
    const QJsonObject c = root.value("camera").toObject();
    SceneView::CameraPose pose;
    pose.position = ReadVector(path, c, "position");
    pose.focal_point = ReadVector(path, c, "focal_point");
    pose.view_up = ReadVector(path, c, "view_up");
    pose.view_angle = c.value("view_angle").toDouble(pose.view_angle);
    pose.parallel = c.value("parallel").toBool(false);
    pose.parallel_scale = c.value("parallel_scale").toDouble(pose.parallel_scale);
    session.camera = pose;
  }
  if (root.contains("charts")) {
    if (!root.value("charts").isArray()) Fail(path, "charts must be a list");
    std::vector<dirac::PlotSpec> charts;
    for (const QJsonValue& v : root.value("charts").toArray()) {
      const QJsonObject o = v.toObject();
      if (!o.value("series").isArray()) Fail(path, "charts: each chart needs a list \"series\"");
      dirac::PlotSpec spec;
      spec.title = o.value("title").toString().toStdString();
      for (const QJsonValue& s : o.value("series").toArray())
        spec.series.push_back(s.toString().toStdString());
      charts.push_back(std::move(spec));
    }
    session.charts = std::move(charts);
  }
  if (root.contains("pinned")) {
    const QJsonObject pinned = root.value("pinned").toObject();
    if (!pinned.value("csv").isString()) Fail(path, "pinned.csv: the pinned run's file is missing");
    session.pinned_csv = QDir::cleanPath(folder.absoluteFilePath(pinned.value("csv").toString()));
    session.pinned_label = pinned.value("label").toString();
  }
  const QJsonObject views = root.value("views").toObject();
  session.compare = views.value("compare").toBool(false);
  session.gauge = views.value("gauge").toBool(false);
  session.loop = views.value("loop").toBool(false);
  session.time = views.value("time").toDouble(0.0);
  const QJsonObject docks = views.value("docks").toObject();
  for (auto it = docks.begin(); it != docks.end(); ++it)
    session.docks.emplace_back(it.key(), it.value().toBool(true));
  return session;
}

}  // namespace dirac::ui
